import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { SaxesParser } from 'saxes';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';
import type { Skip, SourceAuthor, SourceExport, SourcePost } from '../importing/sourcePost.ts';
import { wpautop } from './wpautop.ts';

/** The largest export read (it is streamed; what is kept is the posts' text). */
export const WXR_MAX_BYTES = 1024 * 1024 * 1024;

/** One `<item>` as it is read: the elements a WXR 1.2 export writes that the import uses. */
interface Item {
  fields: Map<string, string>;
  categories: { domain: string; name: string }[];
  meta: Map<string, string>;
}

/**
 * Reads a WordPress export (Tools → Export: WXR 1.0 to 1.2, an RSS 2.0 file with the `wp:`
 * elements), streamed through saxes, which expands no entity but XML's five and character
 * references. A DOCTYPE is refused outright, so no entity can be declared (no billion laughs)
 * and none can name an outside file (no XXE). A file that is not well-formed (cut short,
 * another format) or is no WordPress export is refused as a whole: one line, exit 2.
 */
export async function readWxrFile(file: string): Promise<SourceExport> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new ImportFileError(file, 'cannot be read.');
  }
  if (size > WXR_MAX_BYTES) throw new ImportFileError(file, `is over ${WXR_MAX_BYTES / 1024 / 1024} MB.`);

  const parser = new SaxesParser({ xmlns: false });
  const path: string[] = [];
  let text = '';
  let item: Item | null = null;
  let author: Map<string, string> | null = null;
  let meta: { key: string; value: string } | null = null;
  let category: string | null = null;
  let version: string | null = null;
  let siteUrl: string | null = null;
  let refused: string | null = null;
  const items: Item[] = [];
  const authors: Map<string, string>[] = [];

  parser.on('doctype', () => {
    refused = 'has a DOCTYPE; a WordPress export has none (entity declarations are refused).';
  });
  parser.on('opentag', (tag) => {
    path.push(tag.name);
    text = '';
    if (path.length === 1 && tag.name !== 'rss') refused = 'is not a WordPress export (its root is not <rss>).';
    if (tag.name === 'item' && path.length === 3) item = { fields: new Map(), categories: [], meta: new Map() };
    if (tag.name === 'wp:author' && path.length === 3) author = new Map();
    if (tag.name === 'wp:postmeta' && item) meta = { key: '', value: '' };
    if (tag.name === 'category' && item) category = String(tag.attributes.domain ?? '');
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('cdata', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (tag) => {
    const name = tag.name;
    const depth = path.length;
    if (name === 'wp:wxr_version' && depth === 3) version = text.trim();
    else if (name === 'wp:base_blog_url' && depth === 3) siteUrl = text.trim();
    else if (name === 'link' && depth === 3) siteUrl ??= text.trim();
    else if (author && depth === 4) author.set(name, text);
    else if (name === 'wp:author' && author) {
      authors.push(author);
      author = null;
    } else if (meta && name === 'wp:meta_key') meta.key = text.trim();
    else if (meta && name === 'wp:meta_value') meta.value = text.trim();
    else if (meta && name === 'wp:postmeta') {
      item?.meta.set(meta.key, meta.value);
      meta = null;
    } else if (item && name === 'category' && category !== null) {
      item.categories.push({ domain: category, name: text.trim() });
      category = null;
    } else if (item && depth === 4) item.fields.set(name, text);
    else if (item && name === 'item') {
      items.push(item);
      item = null;
    }
    path.pop();
    text = '';
  });

  try {
    const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
    for await (const chunk of stream) {
      parser.write(chunk as string);
      if (refused) break;
    }
    if (!refused) parser.close();
  } catch (error) {
    // A DOCTYPE is the first thing said about such a file, whatever broke after it in the same chunk.
    if (refused) throw new ImportFileError(file, refused);
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ') : String(error);
    throw new ImportFileError(file, `is not well-formed XML (${reason.slice(0, 160)}).`);
  }
  if (refused) throw new ImportFileError(file, refused);
  if (version === null) throw new ImportFileError(file, 'is not a WordPress export (no <wp:wxr_version>).');
  if (!/^1\.[0-2]$/.test(version)) {
    throw new ImportFileError(file, `is a WXR ${version} export; this importer reads WXR 1.0 to 1.2.`);
  }
  return fromWxr(items, authors, siteUrl);
}

/** A WXR date: the GMT field ('0000-00-00 00:00:00' for a draft never published), else pubDate. */
function dateOf(fields: Map<string, string>): number | null {
  for (const key of ['wp:post_date_gmt', 'wp:post_date']) {
    const value = fields.get(key)?.trim();
    if (value && !value.startsWith('0000')) {
      const ms = Date.parse(`${value.replace(' ', 'T')}Z`);
      if (Number.isFinite(ms)) return ms;
    }
  }
  const pub = Date.parse(fields.get('pubDate') ?? '');
  return Number.isFinite(pub) ? pub : null;
}

const STATUS: Record<string, 'published' | 'draft'> = {
  publish: 'published',
  draft: 'draft',
  pending: 'draft',
  future: 'draft',
  private: 'draft',
};

function fromWxr(items: Item[], authorFields: Map<string, string>[], siteUrl: string | null): SourceExport {
  const authors: SourceAuthor[] = authorFields.map((fields) => ({
    key: fields.get('wp:author_login')?.trim() ?? '',
    email: fields.get('wp:author_email')?.trim() || null,
    name: fields.get('wp:author_display_name')?.trim() || null,
  }));
  const attachments = new Map<string, string>();
  for (const item of items) {
    const url = item.fields.get('wp:attachment_url')?.trim();
    if (item.fields.get('wp:post_type')?.trim() === 'attachment' && url) {
      attachments.set(item.fields.get('wp:post_id')!.trim(), url);
    }
  }
  const posts: SourcePost[] = [];
  const skipped: Skip[] = [];
  let pages = 0;
  for (const { fields, categories, meta } of items) {
    const type = fields.get('wp:post_type')?.trim();
    if (type === 'page') pages++;
    if (type !== 'post') continue;
    const id = fields.get('wp:post_id')?.trim() ?? '';
    const title = fields.get('title')?.trim() ?? '';
    const state = fields.get('wp:status')?.trim() ?? '';
    const status = STATUS[state];
    if (id === '') continue;
    if (title === '') {
      skipped.push({ id, reason: 'it has no title' });
      continue;
    }
    // trash, auto-draft, inherit: never a post a reader saw or a writer kept.
    if (!status) {
      skipped.push({ id, reason: `"${title.slice(0, 60)}": its status is ${state || 'missing'}` });
      continue;
    }
    const date = dateOf(fields);
    if (date === null) {
      skipped.push({ id, reason: `"${title.slice(0, 60)}": it has no date` });
      continue;
    }
    const thumbnail = meta.get('_thumbnail_id');
    posts.push({
      sourceId: id,
      slug: fields.get('wp:post_name')?.trim().toLowerCase() || null,
      title,
      html: wpautop(fields.get('content:encoded') ?? ''),
      excerpt: fields.get('excerpt:encoded')?.trim() || null,
      status,
      date,
      // Categories first (WordPress's "Uncategorized" is no tag a writer chose), then tags.
      tags: [
        ...categories.filter((c) => c.domain === 'category' && c.name !== 'Uncategorized'),
        ...categories.filter((c) => c.domain === 'post_tag'),
      ].map((c) => c.name),
      authorKey: fields.get('dc:creator')?.trim() || null,
      featureImage: (thumbnail && attachments.get(thumbnail)) || null,
    });
  }
  return { source: 'wordpress', siteUrl, authors, posts, pages, skipped };
}
