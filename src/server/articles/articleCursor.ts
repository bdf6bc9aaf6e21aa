/**
 * The list's keyset cursor: the (date, id) of the last article of a page, so the next page
 * starts strictly after it whatever was inserted or deleted meanwhile. Opaque to clients;
 * decoding accepts only the exact form it encodes, so a tampered cursor is a client error,
 * and at worst names another position in a list anyone may read.
 */
export interface ArticleCursor {
  date: number;
  id: string;
}

const PLAIN_FORM = /^(0|[1-9][0-9]{0,15})\.([A-Za-z0-9]{1,64})$/;

export function encodeArticleCursor(cursor: ArticleCursor): string {
  return Buffer.from(`${cursor.date}.${cursor.id}`, 'utf8').toString('base64url');
}

/** Returns undefined for anything that is not a cursor this server issued. */
export function decodeArticleCursor(text: string): ArticleCursor | undefined {
  if (text.length === 0 || text.length > 120 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  const plain = Buffer.from(text, 'base64url').toString('utf8');
  const match = PLAIN_FORM.exec(plain);
  if (!match) return undefined;
  const date = Number(match[1]);
  if (!Number.isSafeInteger(date)) return undefined;
  const cursor = { date, id: match[2]! };
  // Base64 has several spellings of the same bytes; only the canonical one is ours.
  return encodeArticleCursor(cursor) === text ? cursor : undefined;
}

/** The cursor after a row of the list (its date and id): keysetPage's `cursorOf`. */
export const articleCursorOf = (row: ArticleCursor): string => encodeArticleCursor({ date: row.date, id: row.id });
