import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';
import type { Skip, SourceAuthor, SourceExport, SourcePost } from '../importing/sourcePost.ts';

/** The largest export read (JSON is parsed whole: about three times its size in memory). */
export const GHOST_EXPORT_MAX_BYTES = 256 * 1024 * 1024;

// The fields of Ghost's JSON export (Ghost Admin → Settings → Import/Export → Export) read here;
// anything else in it is ignored. The shape of Ghost 5 and 6: {db: [{meta: {version}, data: {...}}]}.
const id = z.union([z.string(), z.number()]).transform(String);
const when = z.union([z.string(), z.number()]).nullish();
const post = z.object({
  id,
  title: z.string().nullish(),
  slug: z.string().nullish(),
  html: z.string().nullish(),
  type: z.string().nullish(),
  status: z.string().nullish(),
  published_at: when,
  created_at: when,
  custom_excerpt: z.string().nullish(),
  feature_image: z.string().nullish(),
  author_id: id.nullish(),
});
const data = z.object({
  posts: z.array(post),
  tags: z.array(z.object({ id, name: z.string(), slug: z.string().nullish() })).default([]),
  posts_tags: z.array(z.object({ post_id: id, tag_id: id, sort_order: z.number().nullish() })).default([]),
  users: z.array(z.object({ id, name: z.string().nullish(), email: z.string().nullish() })).default([]),
  posts_authors: z.array(z.object({ post_id: id, author_id: id, sort_order: z.number().nullish() })).default([]),
});
const exportFile = z.object({
  db: z.array(z.object({ meta: z.object({ version: z.string() }).passthrough(), data: data.passthrough() })).min(1),
});

// Kept out of memory while parsing: each post's editor documents and plain text repeat its HTML.
const DROPPED = new Set(['lexical', 'mobiledoc', 'plaintext']);

/**
 * Reads a Ghost export: a file that is not one (not JSON, cut short, no posts list, an older
 * Ghost) is refused as a whole (ImportFileError: one line, exit 2, nothing written).
 */
export async function readGhostExport(file: string): Promise<SourceExport> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new ImportFileError(file, 'cannot be read.');
  }
  if (size > GHOST_EXPORT_MAX_BYTES) {
    throw new ImportFileError(
      file,
      `is over ${GHOST_EXPORT_MAX_BYTES / 1024 / 1024} MB; this importer reads exports up to that size.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'), (key, value: unknown) => (DROPPED.has(key) ? undefined : value));
  } catch {
    throw new ImportFileError(file, 'is not JSON (cut short or not a Ghost export?).');
  }
  const shaped = exportFile.safeParse(parsed);
  if (!shaped.success) {
    const issue = shaped.error.issues[0]!;
    throw new ImportFileError(
      file,
      `is not a Ghost export (${issue.path.join('.') || 'the file'}: ${issue.message}); export from Ghost Admin → Settings → Advanced → Import/Export.`,
    );
  }
  const { meta, data: content } = shaped.data.db[0]!;
  const major = Number(/^(\d+)\./.exec(meta.version)?.[1]);
  if (!(major >= 5)) {
    throw new ImportFileError(
      file,
      `is an export of Ghost ${meta.version}; this importer reads Ghost 5 and 6 exports.`,
    );
  }
  return fromGhost(content);
}

function epochMs(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

function fromGhost(content: z.output<typeof data>): SourceExport {
  const tagNames = new Map(
    // Ghost's internal tags (#name) organise the site; they are no tag a reader sees.
    content.tags.filter((tag) => !tag.name.startsWith('#')).map((tag) => [tag.id, tag.name]),
  );
  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const link of content.posts_tags) {
    const name = tagNames.get(link.tag_id);
    if (!name) continue;
    const list = tagsOf.get(link.post_id) ?? [];
    list.push({ name, order: link.sort_order ?? list.length });
    tagsOf.set(link.post_id, list);
  }
  const primaryAuthor = new Map<string, { author: string; order: number }>();
  for (const link of content.posts_authors) {
    const current = primaryAuthor.get(link.post_id);
    const order = link.sort_order ?? 0;
    if (!current || order < current.order) primaryAuthor.set(link.post_id, { author: link.author_id, order });
  }
  const authors: SourceAuthor[] = content.users.map((user) => ({
    key: user.id,
    email: user.email ?? null,
    name: user.name ?? null,
  }));

  const posts: SourcePost[] = [];
  const skipped: Skip[] = [];
  let pages = 0;
  for (const item of content.posts) {
    if (item.type === 'page') {
      pages++;
      continue;
    }
    const title = item.title?.trim() ?? '';
    const status =
      item.status === 'published'
        ? 'published'
        : item.status === 'draft' || item.status === 'scheduled'
          ? 'draft'
          : null;
    if (title === '') {
      skipped.push({ id: item.id, reason: 'it has no title' });
      continue;
    }
    if (status === null) {
      // 'sent': an email-only newsletter, never on the site.
      skipped.push({
        id: item.id,
        reason: `"${title.slice(0, 60)}": its status is ${item.status ?? 'missing'} (not on the site)`,
      });
      continue;
    }
    if (item.html === null || item.html === undefined) {
      skipped.push({ id: item.id, reason: `"${title.slice(0, 60)}": the export has no HTML for it` });
      continue;
    }
    const date = epochMs(item.published_at) ?? epochMs(item.created_at);
    if (date === null) {
      skipped.push({ id: item.id, reason: `"${title.slice(0, 60)}": it has no date` });
      continue;
    }
    posts.push({
      sourceId: item.id,
      slug: item.slug?.toLowerCase() ?? null,
      title,
      html: item.html,
      excerpt: item.custom_excerpt ?? null,
      status,
      date,
      tags: (tagsOf.get(item.id) ?? []).sort((a, b) => a.order - b.order).map((tag) => tag.name),
      authorKey: primaryAuthor.get(item.id)?.author ?? item.author_id ?? null,
      featureImage: item.feature_image ?? null,
    });
  }
  return { source: 'ghost', siteUrl: null, authors, posts, pages, skipped };
}
