import type { z } from 'zod';
import type { FieldError } from '../../shared/fieldError.ts';

/** A body's problems, one per field, as forms show them. */
export function parseBody<T>(
  schema: z.ZodType<T>,
  body: unknown,
): { success: true; data: T } | { success: false; errors: FieldError[] } {
  const result = schema.safeParse(body);
  if (result.success) return { success: true, data: result.data };
  const errors: FieldError[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors.push({ field: key, message: `${key} is not a field of this request.` });
      continue;
    }
    const field = issue.path.map(String).join('.') || 'body';
    if (!errors.some((error) => error.field === field)) errors.push({ field, message: issue.message });
  }
  return { success: false, errors };
}
