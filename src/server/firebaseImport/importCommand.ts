import type { Database } from '../db/database.ts';
import type { Identity } from '../identity/createIdentity.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { readArticlesFile } from './articlesFile.ts';
import { parseHashConfig } from './hashConfigFile.ts';
import { importArticles, type ImportCount, type Progress } from './importFirebase.ts';
import { readText } from './readJsonFile.ts';
import { readUsersFile, type Skip } from './usersFile.ts';

export interface ImportFiles {
  users: string;
  hashConfig: string;
  articles?: string | undefined;
}

export interface ImportReport {
  text: string;
  json: { users: { imported: number; skipped: number }; articles: { imported: number; skipped: number } };
}

/**
 * `import-firebase`: every file is read and checked before anything is written (a bad file
 * throws ImportFileError and the database is untouched), then the schema is brought up to
 * date, then users and articles are imported, each file in one transaction.
 */
export async function runFirebaseImport(
  database: Database,
  files: ImportFiles,
  options: {
    now: number;
    progress?: (what: string) => Progress;
    /** Identity's operator operations, made once the schema is up to date. */
    accounts: () => Promise<Pick<Identity['admin'], 'importAccounts'>>;
  },
): Promise<ImportReport> {
  const hashParameters = parseHashConfig(files.hashConfig, await readText(files.hashConfig));
  const usersFile = await readUsersFile(files.users, options.now);
  const articlesFile = files.articles ? await readArticlesFile(files.articles) : { articles: [], skipped: [] };

  await migrateToLatest(database);
  const quiet: Progress = () => {};
  // Accounts go in through identity's core, which owns the users table and the password hashes.
  const users = await (
    await options.accounts()
  ).importAccounts(usersFile.users, { hashParameters, progress: options.progress?.('Users') ?? quiet });
  const articles =
    articlesFile.articles.length > 0
      ? await importArticles(database.db, articlesFile.articles, options.progress?.('Articles') ?? quiet)
      : { imported: 0, skipped: [] };

  const userCount = merge(users, usersFile.skipped);
  const articleCount = merge(articles, articlesFile.skipped);
  return {
    text: [...section('Users', 'user', userCount), ...section('Articles', 'article', articleCount)].join('\n'),
    json: {
      users: { imported: userCount.imported, skipped: userCount.skipped.length },
      articles: { imported: articleCount.imported, skipped: articleCount.skipped.length },
    },
  };
}

function merge(count: ImportCount, readSkips: Skip[]): ImportCount {
  return { imported: count.imported, skipped: [...readSkips, ...count.skipped] };
}

function section(title: string, noun: string, count: ImportCount): string[] {
  return [
    `${title}: ${count.imported} imported, ${count.skipped.length} skipped.`,
    ...count.skipped.map((skip) => `  skipped ${noun} ${skip.id}: ${skip.reason}`),
  ];
}
