import { z } from 'zod';
import type { FieldError } from '../../shared/fieldError.ts';
import { ROLES } from '../../shared/roles.ts';

const role = z.enum(ROLES, { error: `Choose one of ${ROLES.join(', ')}.` });

export const createInvitationBody = z.strictObject({
  role,
  email: z
    .string({ error: 'Give an email address, or leave it out.' })
    .trim()
    .max(254, 'That email address is too long.')
    .pipe(z.email({ error: 'That is not an email address.' }))
    .transform((email) => email.toLowerCase())
    .nullish(),
});

export const memberChangeBody = z
  .strictObject({
    role: role.optional(),
    disabled: z.boolean({ error: 'Give true or false.' }).optional(),
  })
  .refine((change) => change.role !== undefined || change.disabled !== undefined, {
    message: 'Give a role, disabled, or both.',
  });

export const invitationCheckBody = z.strictObject({
  code: z.string({ error: 'Give the invitation code.' }).max(200, 'That is not an invitation code.'),
});

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
