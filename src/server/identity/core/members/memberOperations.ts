import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/database.ts';
import type { DatabaseSchema } from '../../../db/schema.ts';
import type { Role } from '../../../../shared/roles.ts';
import type { UserRow } from '../identityTables.ts';
import type { SessionsStore } from '../stores/sessionsStore.ts';
import type { UsersStore } from '../stores/usersStore.ts';
import { validSinceAfterChange } from '../validSince.ts';

/** The change would leave the site without an enabled owner. */
export class LastOwnerError extends Error {
  override name = 'LastOwnerError';
  constructor() {
    super('The last owner cannot be demoted or disabled.');
  }
}

/** A member as the members list shows one (times epoch ms). */
export interface MemberRow {
  uid: string;
  displayName: string | null;
  email: string;
  role: Role;
  disabled: boolean;
  emailVerified: boolean;
  createdAt: number;
}

export interface MemberChange {
  role?: Role | undefined;
  disabled?: boolean | undefined;
}

/** A member's role or disabled flag changed: who did it (null: the operator), before and after. */
export interface MemberChanged {
  actorUid: string | null;
  before: MemberRow;
  after: MemberRow;
}

/** Runs inside the changing transaction (the audit log); throwing undoes the change. */
export type MemberChangedListener = (event: MemberChanged, trx: Transaction<DatabaseSchema>) => Promise<void>;

/**
 * Tells the member-change listeners, inside `trx`, that claiming an address granted the role
 * bound to it (OWNER_EMAIL or an invitation: addressClaims.ts), so no actor; nothing when the
 * role did not change.
 */
export async function tellRoleGranted(
  listeners: readonly MemberChangedListener[],
  before: UserRow,
  after: UserRow,
  trx: Transaction<DatabaseSchema>,
): Promise<void> {
  if (before.role === after.role) return;
  for (const listener of listeners) {
    await listener({ actorUid: null, before: toMember(before), after: toMember(after) }, trx);
  }
}

const toMember = (user: UserRow): MemberRow => ({
  uid: user.id,
  displayName: user.display_name,
  email: user.email,
  role: user.role,
  disabled: user.disabled === 1,
  emailVerified: user.email_verified === 1,
  createdAt: user.created_at,
});

/** Where a page of members ends: the last one's creation time and uid (oldest first). */
export interface MemberCursor {
  createdAt: number;
  uid: string;
}

/**
 * Accounts as members of the site: listing, roles, disabling. Whoever calls decides who may
 * (the roles feature's permission table, or an operator); the core keeps one rule of its own:
 * there is always an enabled owner once there has been one.
 */
export function createMemberOperations(deps: {
  database: Database;
  users: UsersStore;
  sessions: SessionsStore;
  now: () => number;
  /** Shared with the email actions and provider sign-in, where OWNER_EMAIL makes an owner. */
  changedListeners: MemberChangedListener[];
}) {
  const { db, dialect } = deps.database;
  const { changedListeners } = deps;

  return {
    /**
     * Members oldest first, `q` matching the name or the address (case-insensitive); at most
     * `limit` after `after`.
     */
    async search(options: { q?: string | undefined; after?: MemberCursor | undefined; limit: number }) {
      let query = db.selectFrom('users').selectAll();
      const q = options.q?.trim().toLowerCase();
      if (q) {
        // LIKE's own wildcards in the text are matched as themselves.
        const pattern = `%${q.replace(/[\\%_]/g, (sign) => `\\${sign}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb('email', 'like', sql<string>`${pattern} escape '\\'`),
            eb(sql`lower(display_name)`, 'like', sql<string>`${pattern} escape '\\'`),
          ]),
        );
      }
      const after = options.after;
      if (after) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', after.createdAt),
            eb.and([eb('created_at', '=', after.createdAt), eb('id', '>', after.uid)]),
          ]),
        );
      }
      const rows = await query.orderBy('created_at').orderBy('id').limit(options.limit).execute();
      return rows.map(toMember);
    },

    async find(uid: string): Promise<MemberRow | undefined> {
      const user = await deps.users.findById(uid);
      return user && toMember(user);
    },

    /**
     * Changes a member's role and/or disabled flag in one transaction. `authorise` sees the
     * member as the database holds it now and throws to refuse. Disabling ends the account's
     * tokens at once (sign-in and refresh answer USER_DISABLED); enabling ends the sessions
     * from before (sign in again). undefined: no such account. LastOwnerError: the change
     * would leave no enabled owner. `actorUid` is who asks (null: the operator), for the
     * listeners of onChanged, which run in the same transaction when something changed.
     */
    async change(
      uid: string,
      change: MemberChange,
      options: { actorUid: string | null; authorise?: (current: MemberRow) => void },
    ): Promise<MemberRow | undefined> {
      return db.transaction().execute(async (trx) => {
        // PostgreSQL: two owners demoting each other at once must not both see the other
        // still there: the enabled owners' rows are locked first (SQLite runs one write
        // transaction at a time anyway).
        const ownersQuery = trx
          .selectFrom('users')
          .select('id')
          .where('role', '=', 'owner')
          .where('disabled', '=', 0)
          .orderBy('id');
        const owners = await (dialect === 'postgres' ? ownersQuery.forUpdate() : ownersQuery).execute();
        const user = await deps.users.findById(uid, trx);
        if (!user) return undefined;
        const before = toMember(user);
        options.authorise?.(before);
        const row: Partial<UserRow> = {};
        if (change.role !== undefined && change.role !== user.role) row.role = change.role;
        if (change.disabled === true && user.disabled === 0) {
          row.disabled = 1;
          row.valid_since = validSinceAfterChange(deps.now(), user.valid_since);
        }
        if (change.disabled === false && user.disabled === 1) row.disabled = 0;
        const updated: UserRow = { ...user, ...row };
        const wasEnabledOwner = user.role === 'owner' && user.disabled === 0;
        const isEnabledOwner = updated.role === 'owner' && updated.disabled === 0;
        if (wasEnabledOwner && !isEnabledOwner && owners.every((owner) => owner.id === uid)) {
          throw new LastOwnerError();
        }
        if (Object.keys(row).length > 0) await deps.users.update(uid, row, trx);
        if (row.disabled === 0) await deps.sessions.revokeAllOfUser(uid, trx);
        const after = toMember(updated);
        if (Object.keys(row).length > 0) {
          for (const listener of changedListeners) await listener({ actorUid: options.actorUid, before, after }, trx);
        }
        return after;
      });
    },

    /** Calls `listener` inside the transaction of every change that changed something. */
    onChanged(listener: MemberChangedListener): void {
      changedListeners.push(listener);
    },
  };
}

export type MemberOperations = ReturnType<typeof createMemberOperations>;
