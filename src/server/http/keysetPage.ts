/** One page of a list and the cursor of the next, null on the last page. */
export interface KeysetPage<Row> {
  rows: Row[];
  nextCursor: string | null;
}

/**
 * A page of `limit` rows read as "one more than a page": `read` is asked for `limit + 1` rows
 * from the cursor's position on, so whether another page follows is known without counting.
 * The next cursor is made from the page's last row (`cursorOf`), only when a row was left over.
 */
export async function keysetPage<Row>(
  limit: number,
  read: (rows: number) => Promise<readonly Row[]>,
  cursorOf: (last: Row) => string,
): Promise<KeysetPage<Row>> {
  const rows = await read(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}
