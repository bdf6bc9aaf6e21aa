import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';

/** Limits that refuse a zip bomb before a byte is inflated: the sizes are the entries' declared ones, which yauzl holds them to. */
export const ARCHIVE_LIMITS = {
  entries: 200_000,
  /** One article's Markdown file, with its front matter. */
  articleBytes: 1024 * 1024,
  /** authors.json, comments.json, images.json, subscribers.csv each. */
  listBytes: 256 * 1024 * 1024,
  /** One stored image file (an upload is at most 2400 px on its long side, re-encoded). */
  imageBytes: 32 * 1024 * 1024,
  /** All entries together, inflated. */
  totalBytes: 16 * 1024 * 1024 * 1024,
  /** Deflate manages about 1032:1 at best; an honest export's text stays far below this. */
  ratio: 200,
} as const;

const ARTICLE_NAME = /^articles\/\d{4}-\d{2}-\d{2}-[A-Za-z0-9]{20}\.md$/;
const IMAGE_NAME = /^images\/([A-Za-z0-9_-]{22})\/([A-Za-z0-9.]{1,40})$/;
const LISTS = ['authors.json', 'comments.json', 'images.json', 'subscribers.csv'] as const;
type ListName = (typeof LISTS)[number];

/** An archive checked whole: its text entries read, its image files named (read later, one at a time). */
export interface OpenedArchive {
  articles: Buffer[];
  lists: Record<ListName, Buffer>;
  /** `images/<id>/<name>` → the entry, for readImage. */
  imageFiles: Map<string, yauzl.Entry>;
  readImage(name: string): Promise<Buffer>;
  close(): void;
}

const bad = (file: string, problem: string) => new ImportFileError(file, problem);

/**
 * Opens an `export` archive (siteExport.ts) and reads every entry but the images, checking the
 * whole file first: a damaged, truncated or foreign zip, a path that would leave the archive
 * (yauzl refuses absolute paths, `..` and backslashes with strictFileNames), an unknown entry,
 * a size over the limits or a compression ratio only a zip bomb has: each one line (exit 2).
 */
export async function openExportArchive(file: string): Promise<OpenedArchive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: true }, (error, opened) =>
        error ? reject(error) : resolve(opened),
      ),
    );
  } catch (error) {
    throw bad(file, `is not a readable zip archive (${reason(error)}).`);
  }
  try {
    return await readArchive(file, zip);
  } catch (error) {
    zip.close();
    if (error instanceof ImportFileError) throw error;
    throw bad(file, `is damaged (${reason(error)}).`);
  }
}

async function readArchive(file: string, zip: yauzl.ZipFile): Promise<OpenedArchive> {
  if (zip.entryCount > ARCHIVE_LIMITS.entries) throw bad(file, `has over ${ARCHIVE_LIMITS.entries} entries.`);
  const articles: Buffer[] = [];
  const lists = new Map<ListName, Buffer>();
  const imageFiles = new Map<string, yauzl.Entry>();
  let total = 0;
  for await (const entry of zip.eachEntry()) {
    const name = entry.fileName;
    if (entry.isEncrypted()) throw bad(file, `${name} is encrypted.`);
    const limit = ARTICLE_NAME.test(name)
      ? ARCHIVE_LIMITS.articleBytes
      : IMAGE_NAME.test(name)
        ? ARCHIVE_LIMITS.imageBytes
        : (LISTS as readonly string[]).includes(name)
          ? ARCHIVE_LIMITS.listBytes
          : null;
    if (limit === null) throw bad(file, `is not an Inkwell export (it holds ${JSON.stringify(name.slice(0, 80))}).`);
    total += entry.uncompressedSize;
    if (entry.uncompressedSize > limit || total > ARCHIVE_LIMITS.totalBytes)
      throw bad(file, `${name} is larger than an export's entry may be.`);
    if (entry.uncompressedSize > 1024 * 1024 && entry.uncompressedSize > entry.compressedSize * ARCHIVE_LIMITS.ratio)
      throw bad(file, `${name} is compressed more than an honest file can be (a zip bomb?).`);
    if (IMAGE_NAME.test(name)) {
      imageFiles.set(name, entry);
      continue;
    }
    const bytes = await collect(await zip.openReadStreamPromise(entry));
    if (ARTICLE_NAME.test(name)) articles.push(bytes);
    else lists.set(name as ListName, bytes);
  }
  for (const name of LISTS) if (!lists.has(name)) throw bad(file, `is not an Inkwell export (no ${name}).`);
  return {
    articles,
    lists: Object.fromEntries(lists) as Record<ListName, Buffer>,
    imageFiles,
    readImage: async (name) => collect(await zip.openReadStreamPromise(imageFiles.get(name)!)),
    close: () => zip.close(),
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
