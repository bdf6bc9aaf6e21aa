import type { Database } from '../db/database.ts';

/**
 * How a site with no owner gets one (DESIGN §9.6), said where its operator looks first: the
 * terminal of `npm start`. One source for the words.
 */
export const FIRST_OWNER_HINT =
  'This site has no owner yet: run "npm run admin -- users create you@example.com --role owner" ' +
  'and open the link it prints (or set OWNER_EMAIL, sign up with that address and open the emailed link).';

/** Whether an enabled owner exists. */
export async function hasOwner(database: Database): Promise<boolean> {
  const row = await database.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'owner')
    .where('disabled', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * FIRST_OWNER_HINT while the site has no owner, else undefined: for the empty home page, which
 * asks on every load. Once an owner is seen this process asks no more (an owner is rarely
 * removed; if one is, the hint returns at the next start).
 */
export function ownerlessHint(database: Database): () => Promise<string | undefined> {
  let ownerSeen = false;
  return async () => {
    ownerSeen ||= await hasOwner(database);
    return ownerSeen ? undefined : FIRST_OWNER_HINT;
  };
}
