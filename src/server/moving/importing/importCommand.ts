import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';
import type { Identity } from '../../identity/createIdentity.ts';
import type { Images } from '../../images/createImages.ts';
import { checkFolder, fileInFolder } from './imageFolder.ts';
import { importPosts, type ImportSummary, type Progress } from './importPosts.ts';
import type { ImageFiles, SourceExport } from './sourcePost.ts';

/** Each importer: how it reads its file, and where image URLs point in the old blog's folder. */
const IMPORTERS = {
  ghost: {
    read: async (file: string) => (await import('../ghost/ghostExport.ts')).readGhostExport(file),
    imageMarker: '/content/images/',
  },
  wordpress: {
    read: async (file: string) => (await import('../wordpress/wxrFile.ts')).readWxrFile(file),
    imageMarker: '/wp-content/uploads/',
  },
} as const;

export interface BlogImportContext {
  config: Config;
  database: Database;
  now: number;
  cover?: string | undefined;
  progress?: ((what: string) => Progress) | undefined;
  /** The features, wired as in the server, once the schema is up to date. */
  services: () => Promise<{ identity: { admin: Identity['admin'] }; images: Images }>;
}

/**
 * `import-ghost FILE [--images DIR]` and `import-wordpress FILE [--uploads DIR]`: the file and
 * the folder are checked before anything is written (ImportFileError: exit 2), the schema is
 * brought up to date, then the posts come in (importPosts.ts).
 */
export async function runBlogImport(
  kind: keyof typeof IMPORTERS,
  file: string,
  folder: string | undefined,
  context: BlogImportContext,
): Promise<ImportSummary> {
  const importer = IMPORTERS[kind];
  if (folder !== undefined) {
    const problem = checkFolder(folder);
    if (problem) throw new ImportFileError(folder, problem);
  }
  if (context.cover !== undefined && !/^https?:\/\/[^\s/]+/.test(context.cover)) {
    throw new ImportFileError(context.cover, 'is not an http:// or https:// address (--cover).');
  }
  const exported: SourceExport = await importer.read(file);
  const imageFiles: ImageFiles | null =
    folder === undefined ? null : (src) => fileInFolder(folder, src, importer.imageMarker);
  await migrateToLatest(context.database);
  return importPosts(exported, imageFiles, {
    database: context.database,
    services: async () => {
      const { identity, images } = await context.services();
      return { accounts: identity.admin, images };
    },
    publicUrl: context.config.publicUrl,
    role: context.config.newAccountRole,
    now: context.now,
    cover: context.cover,
    progress: context.progress,
  });
}
