import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { SaxesParser } from 'saxes';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';
import type { PlannedPost, Skip, SourceAuthor, SourceExport, SourcePost } from '../importing/sourcePost.ts';
import { wpautop } from './wpautop.ts';
import { ownString } from '../importing/ownString.ts';

/** The largest export read (it is streamed: memory follows one item, not the file). */
export const WXR_MAX_BYTES = 1024 * 1024 * 1024;

/** One `<item>` as it is read: the elements a WXR 1.2 export writes that the import uses. */
interface Item {
  fields: Map<string, string>;
  categories: { domain: string; name: string }[];
  meta: Map<string, string>;
}

/** What a pass over the file hands out: an `<item>` or a `<wp:author>`, in file order. */
type Read = { item: Item } | { author: Map<string, string> };

/** What the channel says of itself, known once a pass has read the whole file. */
interface Channel {
  version: string | null;
  siteUrl: string | null;
}

/**
 * Reads a WordPress export (Tools → Export: WXR 1.0 to 1.2, an RSS 2.0 file with the `wp:`
 * elements), streamed through saxes, which expands no entity but XML's five and character
 * references. A DOCTYPE is refused outright, so no entity can be declared (no billion laughs)
 * and none can name an outside file (no XXE). Two passes: the first reads the whole file and
 * keeps the authors, the attachments' URLs (a post's featured image may be an attachment
 * further on) and each post's id, slug and title, so a file that is not well-formed (cut short
 * anywhere, another format) or is no WordPress export is refused as a whole before anything is
 * written: one line, exit 2. The second, `posts()`, yields the posts with their text one at a time.
 */
export async function readWxrFile(file: string): Promise<SourceExport> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new ImportFileError(file, 'cannot be read.');
  }
  if (size > WXR_MAX_BYTES) throw new ImportFileError(file, `is over ${WXR_MAX_BYTES / 1024 / 1024} MB.`);

  const channel: Channel = { version: null, siteUrl: null };
  const authors: SourceAuthor[] = [];
  const attachments = new Map<string, string>();
  const planned: PlannedPost[] = [];
  const skipped: Skip[] = [];
  let pages = 0;
  for await (const read of readItems(file, channel)) {
    if ('author' in read) {
      const fields = read.author;
      authors.push({
        key: ownString(fields.get('wp:author_login')?.trim() ?? ''),
        email: ownString(fields.get('wp:author_email')?.trim() || null),
        name: ownString(fields.get('wp:author_display_name')?.trim() || null),
      });
      continue;
    }
    const { fields } = read.item;
    const type = fields.get('wp:post_type')?.trim();
    const url = fields.get('wp:attachment_url')?.trim();
    if (type === 'attachment' && url)
      attachments.set(ownString(fields.get('wp:post_id')?.trim() ?? ''), ownString(url));
    if (type === 'page') pages++;
    const taken = fromWxr(read.item, attachments);
    if (taken === null) continue;
    if ('reason' in taken) skipped.push({ id: ownString(taken.id), reason: ownString(taken.reason) });
    else {
      planned.push({
        sourceId: ownString(taken.sourceId),
        slug: ownString(taken.slug),
        title: ownString(taken.title.slice(0, 60)),
        authorKey: ownString(taken.authorKey),
      });
    }
  }
  if (channel.version === null) throw new ImportFileError(file, 'is not a WordPress export (no <wp:wxr_version>).');
  if (!/^1\.[0-2]$/.test(channel.version)) {
    throw new ImportFileError(file, `is a WXR ${channel.version} export; this importer reads WXR 1.0 to 1.2.`);
  }
  return {
    source: 'wordpress',
    siteUrl: channel.siteUrl,
    authors,
    planned,
    pages,
    skipped,
    posts: async function* () {
      for await (const read of readItems(file, { version: null, siteUrl: null })) {
        if (!('item' in read)) continue;
        const taken = fromWxr(read.item, attachments);
        if (taken === null || 'reason' in taken) continue;
        taken.html = wpautop(taken.html);
        yield taken;
      }
    },
  };
}

/** One streamed pass: the items and authors of the file as saxes reads them, 256 KB at a time. */
async function* readItems(file: string, channel: Channel): AsyncGenerator<Read> {
  const parser = new SaxesParser({ xmlns: false });
  const path: string[] = [];
  let text = '';
  let item: Item | null = null;
  let author: Map<string, string> | null = null;
  let meta: { key: string; value: string } | null = null;
  let category: string | null = null;
  let refused: string | null = null;
  const ready: Read[] = [];

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
    if (name === 'wp:wxr_version' && depth === 3) channel.version = ownString(text.trim());
    else if (name === 'wp:base_blog_url' && depth === 3) channel.siteUrl = ownString(text.trim());
    else if (name === 'link' && depth === 3) channel.siteUrl ??= ownString(text.trim());
    else if (author && depth === 4) author.set(name, text);
    else if (name === 'wp:author' && author) {
      ready.push({ author });
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
      ready.push({ item });
      item = null;
    }
    path.pop();
    text = '';
  });

  const refuse = (error: unknown) => {
    // A DOCTYPE is the first thing said about such a file, whatever broke after it in the same chunk.
    if (refused) return new ImportFileError(file, refused);
    const reason = error instanceof Error ? error.message.replace(/\s+/g, ' ') : String(error);
    return new ImportFileError(file, `is not well-formed XML (${reason.slice(0, 160)}).`);
  };
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream) {
      try {
        parser.write(chunk as string);
      } catch (error) {
        throw refuse(error);
      }
      if (refused) throw new ImportFileError(file, refused);
      yield* ready.splice(0);
    }
    try {
      parser.close();
    } catch (error) {
      throw refuse(error);
    }
  } finally {
    stream.destroy();
  }
  yield* ready.splice(0);
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

/** An item as a post to import (its HTML as written, before wpautop), a skip, or null: not a post. */
function fromWxr({ fields, categories, meta }: Item, attachments: Map<string, string>): SourcePost | Skip | null {
  const type = fields.get('wp:post_type')?.trim();
  if (type !== 'post') return null;
  const id = fields.get('wp:post_id')?.trim() ?? '';
  const title = fields.get('title')?.trim() ?? '';
  const state = fields.get('wp:status')?.trim() ?? '';
  const status = STATUS[state];
  if (id === '') return null;
  if (title === '') return { id, reason: 'it has no title' };
  // trash, auto-draft, inherit: never a post a reader saw or a writer kept.
  if (!status) return { id, reason: `"${title.slice(0, 60)}": its status is ${state || 'missing'}` };
  const date = dateOf(fields);
  if (date === null) return { id, reason: `"${title.slice(0, 60)}": it has no date` };
  const thumbnail = meta.get('_thumbnail_id');
  return {
    sourceId: id,
    slug: fields.get('wp:post_name')?.trim().toLowerCase() || null,
    title,
    html: fields.get('content:encoded') ?? '',
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
  };
}
