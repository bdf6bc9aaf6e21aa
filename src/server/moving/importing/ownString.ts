/**
 * A copy of a string that shares no memory with the text it was cut from. V8 keeps a short
 * piece of a long string as a slice of it: an id a streaming reader keeps from a 256 KB read
 * would hold all 256 KB for as long as the id is kept, and with one id kept per post the
 * readers' first pass grew with the file (about 5 KB a post). What a pass keeps goes through this.
 */
export function ownString(text: string): string;
export function ownString(text: string | null): string | null;
export function ownString(text: string | null): string | null {
  return text === null ? null : Buffer.from(text, 'utf8').toString('utf8');
}
