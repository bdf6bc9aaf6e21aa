import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';
import { siteExport } from './siteExport.ts';

/** `export FILE.zip`: the site's zip written to FILE (through a temporary name, so a failure leaves no half file). */
export async function writeExportFile(db: Kysely<DatabaseSchema>, file: string): Promise<{ bytes: number }> {
  const partial = `${file}.partial`;
  try {
    await pipeline(siteExport(db), fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  return { bytes: fs.statSync(file).size };
}
