import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { csvField, subscriberAddresses } from '../newsletters/subscriberCsv.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrateToLatest, pendingMigrations } from '../db/migrate.ts';
import { EmailTakenError, LastOwnerError, type AdminUserView } from '../identity/createIdentity.ts';
import { emailField } from '../../shared/identityRequests.ts';
import { isRole, roleLabels, type Role } from '../../shared/roles.ts';
import type { Services } from '../services.ts';
import type { CommandName, ValueOption } from './adminUsage.ts';
import { backupSqlite, pgDumpCommand } from './databaseBackup.ts';

/** What a command prints: `text` for people, `json` with --json (`jsonLines`: one JSON value a line). */
export interface CommandResult {
  text: string;
  json: unknown;
  jsonLines?: boolean;
}

const AUDIT_DEFAULT_LIMIT = 100;
const AUDIT_DETAIL_WIDTH = 80;

/** An entry's detail on one table line: JSON (control characters escaped), cut at 80 characters (--json has it whole). */
function auditDetail(detail: Record<string, unknown>): string {
  if (Object.keys(detail).length === 0) return '';
  const text = JSON.stringify(detail);
  return text.length > AUDIT_DETAIL_WIDTH ? `${text.slice(0, AUDIT_DETAIL_WIDTH - 1)}…` : text;
}
const AUDIT_MAX_LIMIT = 100_000;

/** Where a command's text goes: a process's stdout and stderr, or a test's buffers. */
export interface TextSink {
  write(text: string): unknown;
  /** A terminal: progress is drawn in place on one (the Firebase import's). */
  isTTY?: boolean;
}

/** A refusal the operator can act on (exit status 1, no stack trace). */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

export interface CommandContext {
  config: Config;
  database: Database;
  /** Values of the options that take one (--users FILE ...). */
  options: Partial<Record<ValueOption, string>>;
  /** Where progress goes (drawn only on a terminal). */
  stderr: TextSink;
}

type Command = (context: CommandContext, argument: string) => Promise<CommandResult>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function userJson(user: AdminUserView) {
  return { ...user, createdAt: iso(user.createdAt), lastLoginAt: iso(user.lastLoginAt) };
}

function userLines(user: AdminUserView): string {
  return [
    `Email:         ${user.email}`,
    `UID:           ${user.uid}`,
    `Display name:  ${user.displayName ?? '(none)'}`,
    `Role:          ${user.role}`,
    `Status:        ${user.disabled ? 'disabled' : 'active'}`,
    `Email verified: ${user.emailVerified ? 'yes' : 'no'}`,
    `Created:       ${iso(user.createdAt)}`,
    `Last sign-in:  ${iso(user.lastLoginAt) ?? 'never'}`,
    `Password:      ${user.passwordAlgorithm ?? 'none (set one through a password reset)'}`,
    `Providers:     ${
      user.providers.length === 0
        ? '(none)'
        : user.providers
            .map((provider) => `${provider.providerId} (${provider.email ?? `id ${provider.rawId}`})`)
            .join(', ')
    }`,
  ].join('\n');
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The features, wired as in the server, over a schema that must be up to date. */
async function services(context: CommandContext): Promise<Services> {
  const pending = await pendingMigrations(context.database);
  if (pending.length > 0) {
    throw new CommandFailure(
      `The database needs migrations (${pending.join(', ')}); run "npm run admin -- migrate" first.`,
    );
  }
  // Loaded here: migrate and backup need none of the features.
  const { createMailer } = await import('../mail/mailer.ts');
  const { createServices } = await import('../services.ts');
  // Admin actions send no email; a mailer is part of the identity wiring all the same.
  const mailer = createMailer({
    smtpUrl: context.config.smtpUrl,
    from: context.config.mailFrom,
    dataDir: context.config.dataDir,
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  const made = createServices({ config: context.config, database: context.database, mailer });
  // The mails a command sends (users create, invite --email) name the site as its settings say now.
  await made.settings.current();
  return made;
}

/** `import-ghost` and `import-wordpress` (src/server/moving/importing). */
async function blogImport(
  context: CommandContext,
  kind: 'ghost' | 'wordpress',
  file: string,
  folder: string | undefined,
): Promise<CommandResult> {
  const { runBlogImport } = await import('../moving/importing/importCommand.ts');
  const { terminalProgress } = await import('../firebaseImport/terminalProgress.ts');
  return runBlogImport(kind, file, folder, {
    config: context.config,
    database: context.database,
    now: Date.now(),
    cover: context.options['--cover'],
    progress: terminalProgress(context.stderr),
    services: () => services(context),
  });
}

/** The last enabled owner stays: an operator's refusal, not a failure. */
async function lastOwnerKept<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (error instanceof LastOwnerError) {
      throw new CommandFailure('That is the last owner: make another account owner first.');
    }
    throw error;
  }
}

const article = (role: Role) => (role === 'owner' || role === 'editor' || role === 'author' ? 'an' : 'a');

function noAccount(email: string): CommandFailure {
  return new CommandFailure(`No account with email ${email}.`);
}

export const commands: Record<CommandName, Command> = {
  'users list': async (context) => {
    const users = await (await services(context)).identity.admin.listUsers();
    const text =
      users.length === 0
        ? 'No accounts.'
        : table([
            ['EMAIL', 'UID', 'ROLE', 'STATUS', 'CREATED', 'LAST SIGN-IN'],
            ...users.map((u) => [
              u.email,
              u.uid,
              u.role,
              u.disabled ? 'disabled' : 'active',
              iso(u.createdAt)!,
              iso(u.lastLoginAt) ?? 'never',
            ]),
          ]) + `\n${users.length} account${users.length === 1 ? '' : 's'}.`;
    return { text, json: { users: users.map(userJson) } };
  },
  'users show': async (context, email) => {
    const { identity, passkeys } = await services(context);
    const user = await identity.admin.findUser(email);
    if (!user) throw noAccount(email);
    const passkeyCount = await passkeys.countOfUser(user.uid);
    const twoStep = await identity.admin.twoStepStatus(user.uid);
    const twoStepLine = twoStep.enabled ? `on (${twoStep.recoveryCodesLeft} recovery codes left)` : 'off';
    return {
      text: `${userLines(user)}\nPasskeys:      ${passkeyCount}\nTwo-step:      ${twoStepLine}`,
      json: { user: userJson(user), passkeys: passkeyCount, twoStep },
    };
  },
  'users disable': async (context, email) => {
    const user = await lastOwnerKept((await services(context)).identity.admin.disableUser(email));
    if (!user) throw noAccount(email);
    return {
      text: `Disabled ${user.email}: its tokens no longer work and it cannot sign in.`,
      json: { user: userJson(user) },
    };
  },
  'users enable': async (context, email) => {
    const user = await (await services(context)).identity.admin.enableUser(email);
    if (!user) throw noAccount(email);
    return { text: `Enabled ${user.email}: it can sign in again.`, json: { user: userJson(user) } };
  },
  'users delete': async (context, email) => {
    const user = await (await services(context)).identity.admin.deleteUser(email);
    if (!user) throw noAccount(email);
    return { text: `Deleted ${user.email} and all its articles.`, json: { deleted: userJson(user) } };
  },
  'users reset-two-step': async (context, email) => {
    const { identity } = await services(context);
    const user = await identity.admin.findUser(email);
    if (!user) throw noAccount(email);
    const removed = await identity.admin.resetTwoStep(user.uid);
    return {
      text: removed
        ? `Turned two-step verification off for ${user.email} and signed it out everywhere; it signs in with its password alone until it turns two-step on again.`
        : `Two-step verification was not on for ${user.email}; nothing changed.`,
      json: { user: userJson(user), reset: removed },
    };
  },
  'users role': async (context, argument) => {
    const [email = '', role] = argument.split(' ');
    if (!isRole(role)) throw new CommandFailure(`Unknown role "${role}".`);
    const user = await lastOwnerKept((await services(context)).identity.admin.setRole(email, role));
    if (!user) throw noAccount(email);
    return {
      text: `${user.email} is now ${article(role)} ${roleLabels[role].toLowerCase()}; this takes effect at once.`,
      json: { user: userJson(user) },
    };
  },
  'users create': async (context, email) => {
    const address = emailField.safeParse(email);
    if (!address.success) throw new CommandFailure(`"${email}" is not an email address.`);
    const role = context.options['--role'] ?? context.config.newAccountRole;
    if (!isRole(role)) throw new CommandFailure(`Unknown role "${role}".`);
    const name = context.options['--name']?.trim() || null;
    let created;
    try {
      created = await (
        await services(context)
      ).identity.admin.createAccount({
        email: address.data,
        displayName: name,
        role,
      });
    } catch (error) {
      if (error instanceof EmailTakenError) throw new CommandFailure(`An account with email ${address.data} exists.`);
      throw error;
    }
    const { user, setupUrl, mailed } = created;
    return {
      text: [
        `Made ${user.email}, ${article(user.role)} ${roleLabels[user.role].toLowerCase()}, without a password.`,
        mailed
          ? 'Emailed this link, which sets its password (valid 3 days, once):'
          : 'The email could not be sent; give them this link, which sets its password (valid 3 days, once):',
        setupUrl,
      ].join('\n'),
      json: { user: userJson(user), setupUrl, mailed },
    };
  },
  invite: async (context, role) => {
    if (!isRole(role)) throw new CommandFailure(`Unknown role "${role}".`);
    const rawEmail = context.options['--email'];
    const address = rawEmail === undefined ? undefined : emailField.safeParse(rawEmail);
    if (address && !address.success) throw new CommandFailure(`"${rawEmail}" is not an email address.`);
    const email = address?.data ?? null;
    const { url, expiresAt, mailed } = await (await services(context)).invitations.create({ role, email });
    return {
      text: [
        `An invitation for ${article(role)} ${roleLabels[role].toLowerCase()}${email ? `, for ${email} only` : ''}, valid until ${iso(expiresAt)} (once):`,
        url,
        ...(email === null
          ? []
          : [mailed ? `Emailed to ${email}.` : `The email to ${email} could not be sent: give them the link.`]),
      ].join('\n'),
      json: { url, role, email, expiresAt: iso(expiresAt), mailed },
    };
  },
  'keys rotate': async (context) => {
    const rotated = await (await services(context)).identity.admin.rotateSigningKey();
    return {
      text:
        `New signing key ${rotated.kid} is current` +
        (rotated.previousKid ? `; tokens signed with ${rotated.previousKid} stay valid until they expire.` : '.') +
        '\nRunning servers sign with it within 30 seconds.',
      json: rotated,
    };
  },
  backup: async (context, file) => {
    const destination = path.resolve(file);
    const { database } = context.config;
    if (database.kind === 'postgres') {
      const command = pgDumpCommand(database.url, destination);
      return {
        text:
          'This server uses PostgreSQL: take the backup with pg_dump (it reads the password from\n' +
          'PGPASSWORD or ~/.pgpass; it is not shown here):\n\n  ' +
          command +
          '\n\nRestore into an empty database with pg_restore --no-owner --dbname=URL FILE.',
        json: { dialect: 'postgres', command },
      };
    }
    const { bytes } = await backupSqlite(database.file, destination);
    return {
      text: `Backed up ${database.file} to ${destination} (${bytes} bytes).`,
      json: { dialect: 'sqlite', source: database.file, file: destination, bytes },
    };
  },
  'import-firebase': async (context) => {
    const { runFirebaseImport } = await import('../firebaseImport/importCommand.ts');
    const { terminalProgress } = await import('../firebaseImport/terminalProgress.ts');
    return runFirebaseImport(
      context.database,
      {
        users: context.options['--users']!,
        hashConfig: context.options['--hash-config']!,
        articles: context.options['--articles'],
      },
      {
        now: Date.now(),
        // Checked by the command line parser.
        role: (context.options['--role'] as Role | undefined) ?? context.config.newAccountRole,
        progress: terminalProgress(context.stderr),
        accounts: async () => (await services(context)).identity.admin,
      },
    );
  },
  audit: async (context) => {
    const limitText = context.options['--limit'];
    const limit = limitText === undefined ? AUDIT_DEFAULT_LIMIT : Number(limitText);
    if (!/^\d+$/.test(limitText ?? '1') || !Number.isSafeInteger(limit) || limit < 1 || limit > AUDIT_MAX_LIMIT) {
      throw new CommandFailure(`--limit takes a whole number from 1 to ${AUDIT_MAX_LIMIT}.`);
    }
    const entries = await (await services(context)).audit.newest(limit);
    const text =
      entries.length === 0
        ? 'The audit log is empty.'
        : table([
            ['AT', 'ACTOR', 'ACTION', 'TARGET', 'DETAIL'],
            ...entries.map((entry) => [
              entry.at,
              entry.actorUid ?? '(operator)',
              entry.action,
              `${entry.targetType} ${entry.targetId}`,
              auditDetail(entry.detail),
            ]),
          ]) + `\n${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, newest first.`;
    return { text, json: entries, jsonLines: true };
  },
  'subscribers import': async (context, file) => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw new CommandFailure(`Cannot read ${file}.`);
    }
    const found = subscriberAddresses(text);
    if (!found) throw new CommandFailure(`${file} has no column named email.`);
    const { added, known } = await (await services(context)).newsletters.subscribers.importConfirmed(found.emails);
    return {
      text: `Subscribers: ${added} added, ${known} already here, ${found.invalid} rows without a valid address.`,
      json: { added, known, invalid: found.invalid },
    };
  },
  'subscribers export': async (context) => {
    const lines = ['email,status,created_at'];
    const all = [];
    for await (const subscriber of (await services(context)).newsletters.subscribers.all()) {
      all.push(subscriber);
      lines.push([subscriber.email, subscriber.status, subscriber.createdAt].map(csvField).join(','));
    }
    return { text: lines.join('\n'), json: all, jsonLines: true };
  },
  'import-ghost': (context, file) => blogImport(context, 'ghost', file, context.options['--images']),
  'import-wordpress': (context, file) => blogImport(context, 'wordpress', file, context.options['--uploads']),
  export: async (context, file) => {
    const { writeExportFile } = await import('../moving/export/exportFile.ts');
    const pending = await pendingMigrations(context.database);
    if (pending.length > 0)
      throw new CommandFailure(
        `The database needs migrations (${pending.join(', ')}); run "npm run admin -- migrate" first.`,
      );
    const { bytes } = await writeExportFile(context.database.db, path.resolve(file));
    return {
      text: `Exported the site to ${path.resolve(file)} (${bytes} bytes).`,
      json: { file: path.resolve(file), bytes },
    };
  },
  'import-export': async (context, file) => {
    const { runRestore } = await import('../moving/restore/restoreCommand.ts');
    const { terminalProgress } = await import('../firebaseImport/terminalProgress.ts');
    const progress = terminalProgress(context.stderr);
    return runRestore(path.resolve(file), {
      config: context.config,
      database: context.database,
      progress: (what) => progress?.(what) ?? (() => {}),
      services: () => services(context),
    });
  },
  'copy-database': async (context) => {
    const { runCopyDatabase, copyProgress } = await import('../moving/copy/copyCommand.ts');
    const { CopyRefusal } = await import('../moving/copy/copyDatabase.ts');
    const { terminalProgress } = await import('../firebaseImport/terminalProgress.ts');
    const { database } = context.config;
    const sourceName = database.kind === 'sqlite' ? database.file : 'the configured database';
    try {
      return await runCopyDatabase(
        context.database,
        sourceName,
        context.options['--to']!,
        copyProgress(terminalProgress(context.stderr)),
      );
    } catch (error) {
      if (error instanceof CopyRefusal) throw new CommandFailure(error.message);
      throw error;
    }
  },
  migrate: async (context) => {
    const result = await migrateToLatest(context.database);
    const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    return {
      text: applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Database is up to date.',
      json: { applied },
    };
  },
};
