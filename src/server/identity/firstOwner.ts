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
