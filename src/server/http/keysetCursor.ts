import { z } from 'zod';

/**
 * The opaque cursor of a list paged by (time, id), newest or oldest first: the last row's pair,
 * as base64url JSON. Decoding accepts only that form, so a made-up cursor is a client error. The
 * articles list has a stricter cursor of its own (articles/articleCursor.ts): its ids have one shape.
 */
export interface KeysetPosition {
  /** Epoch milliseconds. */
  at: number;
  id: string;
}

export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** undefined: not a cursor this server made, or an id longer than the list's ids can be. */
export function decodeKeysetCursor(text: string, maxIdLength: number): KeysetPosition | undefined {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      value[1].length <= maxIdLength
    ) {
      return { at: value[0] as number, id: value[1] };
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** A query's `cursor` parameter as a schema (queryValidation): absent, or a position this server handed out. */
export function keysetCursorParameter(maxIdLength: number) {
  return z
    .string({ error: 'Use the nextCursor of an earlier page.' })
    .transform((text, context) => {
      const position = decodeKeysetCursor(text, maxIdLength);
      if (position === undefined)
        context.addIssue({ code: 'custom', message: 'Use the nextCursor of an earlier page.' });
      return position ?? z.NEVER;
    })
    .optional();
}
