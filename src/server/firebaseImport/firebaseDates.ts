/**
 * A Firestore date as exports write it: {_seconds, _nanoseconds} (firebase-admin's JSON of a
 * Timestamp), {seconds, nanoseconds}, an ISO 8601 string or epoch milliseconds (number or
 * digits). Returns epoch milliseconds, or undefined when it is none of those.
 */
export function parseFirebaseDate(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? validMs(Math.trunc(value)) : undefined;
  if (typeof value === 'string') {
    if (/^\d{1,16}$/.test(value)) return validMs(Number(value));
    // ISO 8601 with a date and time; Date.parse alone accepts looser forms.
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return undefined;
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : validMs(ms);
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const seconds = record._seconds ?? record.seconds;
    const nanoseconds = record._nanoseconds ?? record.nanoseconds ?? 0;
    if (!Number.isInteger(seconds) || !Number.isInteger(nanoseconds)) return undefined;
    if ((nanoseconds as number) < 0 || (nanoseconds as number) >= 1e9) return undefined;
    return validMs((seconds as number) * 1000 + Math.floor((nanoseconds as number) / 1e6));
  }
  return undefined;
}

// Dates JavaScript can represent (±8.64e15 ms); whether one is sane for an article is decided by its reader.
function validMs(ms: number): number | undefined {
  return Number.isSafeInteger(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
}
