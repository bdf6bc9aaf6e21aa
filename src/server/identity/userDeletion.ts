import type { IdentityContext } from './identityContext.ts';

/**
 * Deletes an account with everything hanging off it: the deletion listeners (other
 * features' data, wired in app.ts) run in the same transaction, before the users row goes.
 */
export async function deleteUserEverywhere(context: IdentityContext, uid: string): Promise<void> {
  await context.database.db.transaction().execute(async (trx) => {
    for (const listener of context.userDeletingListeners) await listener(uid, trx);
    await context.sessions.revokeAllOfUser(uid, trx);
    await context.users.delete(uid, trx);
  });
}
