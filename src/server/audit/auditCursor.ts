import type { AuditPosition } from './auditLog.ts';

/** The audit log's opaque cursor: the last entry's time and id. */
export function encodeAuditCursor(position: AuditPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** undefined: not a cursor this server made. */
export function decodeAuditCursor(text: string): AuditPosition | undefined {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      value[1].length <= 64
    ) {
      return { at: value[0] as number, id: value[1] };
    }
  } catch {
    // not JSON
  }
  return undefined;
}
