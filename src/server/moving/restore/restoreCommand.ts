import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';
import type { Identity } from '../../identity/createIdentity.ts';
import type { Images } from '../../images/createImages.ts';
import type { Progress } from '../importing/importPosts.ts';
import { openExportArchive } from './exportArchive.ts';
import { exportContents } from './exportContents.ts';
import { isEmptySite, restoreSite, type RestoreSummary } from './restoreSite.ts';

export interface RestoreContext {
  config: Config;
  database: Database;
  progress: (what: string) => Progress;
  services: () => Promise<{ identity: { admin: Identity['admin'] }; images: Images }>;
}

/** The site is not empty: refused before the archive is written anywhere (exit 2 like a bad file: nothing changed). */
export class NotEmptyError extends ImportFileError {}

/**
 * `import-export FILE.zip`: the archive is checked whole (exportArchive.ts, exportContents.ts)
 * and the site found empty before anything is written; then it comes in (restoreSite.ts).
 */
export async function runRestore(file: string, context: RestoreContext): Promise<RestoreSummary> {
  const archive = await openExportArchive(file);
  try {
    const contents = exportContents(file, archive);
    await migrateToLatest(context.database);
    if (!(await isEmptySite(context.database)))
      throw new NotEmptyError(
        file,
        'this site is not empty (it has accounts, articles, images, comments or subscribers); import an export only into a new site.',
      );
    const { identity, images } = await context.services();
    return await restoreSite(contents, archive, {
      database: context.database,
      accounts: identity.admin,
      images,
      publicUrl: context.config.publicUrl,
      progress: context.progress,
    });
  } finally {
    archive.close();
  }
}
