import type { MemberCursor } from '../identity/createIdentity.ts';

/** The members list's opaque cursor: the last member's creation time and uid. */
export function encodeMemberCursor(cursor: MemberCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.uid])).toString('base64url');
}

/** undefined: not a cursor this server made. */
export function decodeMemberCursor(text: string): MemberCursor | undefined {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      value[1].length <= 128
    ) {
      return { createdAt: value[0] as number, uid: value[1] };
    }
  } catch {
    // not JSON
  }
  return undefined;
}
