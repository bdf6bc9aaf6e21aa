import { displayNameField, emailField, photoUrlField } from '../../shared/identityRequests.ts';
import type { ImportedAccount } from '../identity/createIdentity.ts';
import { decodeBase64 } from './base64.ts';
import { parseFirebaseDate } from './firebaseDates.ts';
import { ImportFileError } from './importFileError.ts';
import { readJsonFile } from './readJsonFile.ts';

export interface Skip {
  id: string;
  reason: string;
}

export interface UsersFile {
  users: ImportedAccount[];
  skipped: Skip[];
}

const UID = /^[\x21-\x7e]{1,128}$/;

/** Ways into a Firebase account that are not OpenID providers (phone, the password itself). */
const NOT_PROVIDERS = new Set(['password', 'phone', 'anonymous', 'emailLink']);
const PROVIDER_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;

/** The provider links of a record; malformed entries are left out (they cannot sign anyone in). */
function providerLinks(record: Record<string, unknown>): ImportedAccount['providers'] {
  if (!Array.isArray(record.providerUserInfo)) return [];
  const links: ImportedAccount['providers'] = [];
  for (const entry of record.providerUserInfo as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const info = entry as Record<string, unknown>;
    if (typeof info.providerId !== 'string' || !PROVIDER_ID.test(info.providerId)) continue;
    if (NOT_PROVIDERS.has(info.providerId) || links.some((link) => link.providerId === info.providerId)) continue;
    if (typeof info.rawId !== 'string' || info.rawId.length === 0 || info.rawId.length > 255) continue;
    const email = emailField.safeParse(info.email);
    const displayName = displayNameField.safeParse(info.displayName);
    const photoUrl = photoUrlField.safeParse(info.photoUrl);
    links.push({
      providerId: info.providerId,
      rawId: info.rawId,
      email: email.success ? email.data : null,
      displayName: displayName.success && displayName.data !== '' ? displayName.data : null,
      photoUrl: photoUrl.success && photoUrl.data !== '' ? photoUrl.data : null,
    });
  }
  return links;
}

/**
 * The output of `firebase auth:export FILE --format=json`: {"users": [{localId, email,
 * emailVerified, passwordHash, salt, displayName, photoUrl, createdAt, lastSignedInAt,
 * disabled, providerUserInfo...}]}. A record that is not an account at all (no localId) makes
 * the file unusable; a record Inkwell cannot take (no or invalid email) is skipped.
 */
export async function readUsersFile(file: string, now: number): Promise<UsersFile> {
  const root = await readJsonFile(file);
  const list = (root as { users?: unknown } | null)?.users;
  if (typeof root !== 'object' || root === null || !Array.isArray(list)) {
    throw new ImportFileError(file, 'no "users" list (expected the output of firebase auth:export --format=json)');
  }
  const users: ImportedAccount[] = [];
  const skipped: Skip[] = [];
  list.forEach((entry: unknown, index: number) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ImportFileError(file, `users[${index}] is not an object`);
    }
    const record = entry as Record<string, unknown>;
    if (typeof record.localId !== 'string' || !UID.test(record.localId)) {
      throw new ImportFileError(file, `users[${index}] has no valid localId`);
    }
    const outcome = readUser(record, now);
    if (typeof outcome === 'string') skipped.push({ id: record.localId, reason: outcome });
    else users.push(outcome);
  });
  return { users, skipped };
}

/** The account, or why it is skipped. */
function readUser(record: Record<string, unknown>, now: number): ImportedAccount | string {
  const uid = record.localId as string;
  if (record.email === undefined || record.email === null || record.email === '') return 'no email address';
  const email = emailField.safeParse(record.email);
  if (!email.success) return 'invalid email address';
  const displayName =
    record.displayName == null ? { success: true as const, data: '' } : displayNameField.safeParse(record.displayName);
  if (!displayName.success) return 'invalid display name';
  const photoUrl =
    record.photoUrl == null ? { success: true as const, data: '' } : photoUrlField.safeParse(record.photoUrl);
  if (!photoUrl.success) return 'invalid photo URL';
  let firebasePassword: ImportedAccount['firebasePassword'] = null;
  if (record.passwordHash != null && record.passwordHash !== '') {
    const hash = typeof record.passwordHash === 'string' ? decodeBase64(record.passwordHash) : undefined;
    const salt = typeof record.salt === 'string' ? decodeBase64(record.salt) : undefined;
    if (!hash || hash.length === 0 || hash.length > 1024) return 'password hash is not base64';
    if (!salt || salt.length > 1024) return 'password salt is missing or not base64';
    firebasePassword = { hash, salt };
  }
  const createdAt = record.createdAt == null ? now : parseFirebaseDate(record.createdAt);
  if (createdAt === undefined) return 'invalid createdAt';
  const lastLoginAt = record.lastSignedInAt == null ? null : parseFirebaseDate(record.lastSignedInAt);
  if (lastLoginAt === undefined) return 'invalid lastSignedInAt';
  return {
    uid,
    email: email.data,
    firebasePassword,
    displayName: displayName.data === '' ? null : displayName.data,
    photoUrl: photoUrl.data === '' ? null : photoUrl.data,
    emailVerified: record.emailVerified === true,
    disabled: record.disabled === true,
    createdAt,
    lastLoginAt,
    providers: providerLinks(record),
  };
}
