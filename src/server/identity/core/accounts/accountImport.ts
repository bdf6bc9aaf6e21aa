import type { Database } from '../../../db/database.ts';
import type { Role } from '../../../../shared/roles.ts';
import { encodeFirebaseHash, type FirebaseHashParameters } from '../passwords/firebaseScrypt.ts';
import type { FederatedIdentityRow, UserRow } from '../identityTables.ts';
import { initialValidSince } from '../validSince.ts';

/** An account brought from elsewhere (a Firebase export), keeping its uid and dates. */
export interface ImportedAccount {
  uid: string;
  /** Normalized. */
  email: string;
  /** Firebase's own hash of the password and its salt; null without a password (federated-only). */
  firebasePassword: { hash: Buffer; salt: Buffer } | null;
  displayName: string | null;
  photoUrl: string | null;
  emailVerified: boolean;
  disabled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
  /** Identity providers linked in Firebase (providerUserInfo besides the password): kept, so they sign in to this uid. */
  providers: ImportedProviderLink[];
}

/** A Firebase providerUserInfo entry of an OpenID provider (google.com, oidc.<name>). */
export interface ImportedProviderLink {
  providerId: string;
  /** The provider's `sub`. */
  rawId: string;
  email: string | null;
  displayName: string | null;
  photoUrl: string | null;
}

export interface AccountImportCount {
  imported: number;
  skipped: { id: string; reason: string }[];
}

// 80 rows x 12 values stays under SQLite's historical 999-parameter limit and PostgreSQL's 65535.
const BATCH = 80;

/**
 * Inserts imported accounts in one transaction, keeping their uids. A uid already present is
 * skipped (a re-run); an email held by another uid is a conflict, skipped and never merged.
 * No password is hashed here: the Firebase hash is stored in its self-describing form
 * (firebaseScrypt.ts) and replaced by argon2id at its owner's first sign-in (decision 0060).
 */
export async function importAccounts(
  database: Database,
  accounts: ImportedAccount[],
  options: {
    /** null for accounts brought without passwords (a blog's authors: Ghost, WordPress). */
    hashParameters: FirebaseHashParameters | null;
    now: number;
    /** Every imported account's role (NEW_ACCOUNT_ROLE, or the command's --role). */
    role: Role;
    progress: (done: number, total: number) => void;
  },
): Promise<AccountImportCount> {
  const skipped: AccountImportCount['skipped'] = [];
  let imported = 0;
  await database.db.transaction().execute(async (trx) => {
    const seenEmails = new Set<string>();
    const seenIds = new Set<string>();
    for (let start = 0; start < accounts.length; start += BATCH) {
      const batch = accounts.slice(start, start + BATCH);
      const [byId, byEmail] = await Promise.all([
        trx
          .selectFrom('users')
          .select('id')
          .where(
            'id',
            'in',
            batch.map((account) => account.uid),
          )
          .execute(),
        trx
          .selectFrom('users')
          .select(['id', 'email'])
          .where(
            'email',
            'in',
            batch.map((account) => account.email),
          )
          .execute(),
      ]);
      const existingIds = new Set(byId.map((row) => row.id));
      const emailOwners = new Map(byEmail.map((row) => [row.email, row.id]));
      const rows: UserRow[] = [];
      for (const account of batch) {
        if (seenIds.has(account.uid)) {
          skipped.push({ id: account.uid, reason: 'this uid appears earlier in the file' });
        } else if (existingIds.has(account.uid)) {
          skipped.push({ id: account.uid, reason: 'already imported (this uid exists)' });
        } else if (emailOwners.has(account.email) || seenEmails.has(account.email)) {
          skipped.push({ id: account.uid, reason: 'its email address belongs to another account' });
        } else {
          seenIds.add(account.uid);
          seenEmails.add(account.email);
          rows.push(userRow(account, options.hashParameters, options.now, options.role));
        }
      }
      if (rows.length > 0) await trx.insertInto('users').values(rows).execute();
      const links = batch
        .filter((account) => rows.some((row) => row.id === account.uid))
        .flatMap((account) => account.providers.map((link) => linkRow(account.uid, link, options.now)));
      // An identity another account already holds stays there (a re-run, or a second export).
      if (links.length > 0) {
        await trx
          .insertInto('federated_identities')
          .values(links)
          .onConflict((conflict) => conflict.doNothing())
          .execute();
      }
      imported += rows.length;
      options.progress(imported + skipped.length, accounts.length);
    }
  });
  return { imported, skipped };
}

/** A Firebase providerUserInfo link, kept so the provider, once configured, signs in to the old uid. */
function linkRow(uid: string, link: ImportedProviderLink, now: number): FederatedIdentityRow {
  return {
    provider_id: link.providerId,
    subject: link.rawId,
    user_id: uid,
    email: link.email,
    display_name: link.displayName,
    photo_url: link.photoUrl,
    created_at: now,
  };
}

function userRow(
  account: ImportedAccount,
  hashParameters: FirebaseHashParameters | null,
  now: number,
  role: Role,
): UserRow {
  const password = account.firebasePassword;
  if (password !== null && hashParameters === null) throw new Error('An imported password needs its hash parameters.');
  return {
    id: account.uid,
    email: account.email,
    // '' lets nothing in (passwordHashing.ts): such an account sets a password through a reset.
    password_hash: password === null ? '' : encodeFirebaseHash(hashParameters!, password.salt, password.hash),
    display_name: account.displayName,
    photo_url: account.photoUrl,
    email_verified: account.emailVerified ? 1 : 0,
    disabled: account.disabled ? 1 : 0,
    created_at: account.createdAt,
    last_login_at: account.lastLoginAt,
    password_updated_at: account.createdAt,
    role,
    valid_since: initialValidSince(now),
    // Verified in Firebase counts as claimed, as for accounts verified before claims existed
    // (migration 0550); no role bound to the address comes with an import.
    address_claimed: account.emailVerified ? 1 : 0,
    claimable_role: null,
  };
}
