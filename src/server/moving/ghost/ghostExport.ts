import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { ImportFileError } from '../../firebaseImport/importFileError.ts';
import type { PlannedPost, Skip, SourceAuthor, SourceExport, SourcePost } from '../importing/sourcePost.ts';
import { ownString } from '../importing/ownString.ts';
import { GhostShapeError, GhostSyntaxError, walkGhostExport } from './ghostJsonWalk.ts';

/** The largest export read (it is streamed: memory follows one post, not the file). */
export const GHOST_EXPORT_MAX_BYTES = 1024 * 1024 * 1024;

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
// Each table's element, checked as it streams past (a table's order in the file is not fixed).
const TABLES = {
  posts: post,
  tags: z.object({ id, name: z.string(), slug: z.string().nullish() }),
  posts_tags: z.object({ post_id: id, tag_id: id, sort_order: z.number().nullish() }),
  users: z.object({ id, name: z.string().nullish(), email: z.string().nullish() }),
  posts_authors: z.object({ post_id: id, author_id: id, sort_order: z.number().nullish() }),
};
const meta = z.object({ version: z.string() }).passthrough();
type GhostPost = z.output<typeof post>;

// Kept out of memory while reading: each post's editor documents and plain text repeat its HTML.
const DROPPED = new Set(['lexical', 'mobiledoc', 'plaintext']);
const GUIDE = 'export from Ghost Admin → Settings → Advanced → Import/Export';

/**
 * Reads a Ghost export in two streamed passes. The first reads all of it, checking every value
 * it uses, and keeps the small tables (users, tags, the post-tag and post-author links, which
 * may come before or after the posts) and each post's id, slug and title; a file that is not
 * one (not JSON, cut short anywhere, another shape, an older Ghost) is refused as a whole
 * (ImportFileError: one line, exit 2, nothing written). The second pass, `posts()`, yields the
 * posts with their HTML one at a time.
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

  let version: string | null = null;
  const tagNames = new Map<string, string>();
  const tagLinks: z.output<(typeof TABLES)['posts_tags']>[] = [];
  const primaryAuthor = new Map<string, { author: string; order: number }>();
  const authors: SourceAuthor[] = [];
  const planned: (PlannedPost & { authorId: string | null })[] = [];
  const skipped: Skip[] = [];
  let pages = 0;
  const found = new Set<string>();
  const reading = walk(file, new Set(Object.keys(TABLES)), found, (table, value) => {
    if (table === 'meta') version = ownString((value as z.output<typeof meta>).version);
    else if (table === 'tags') {
      const tag = value as z.output<(typeof TABLES)['tags']>;
      // Ghost's internal tags (#name) organise the site; they are no tag a reader sees.
      if (!tag.name.startsWith('#')) tagNames.set(ownString(tag.id), ownString(tag.name));
    } else if (table === 'posts_tags') {
      const link = value as z.output<(typeof TABLES)['posts_tags']>;
      tagLinks.push({ post_id: ownString(link.post_id), tag_id: ownString(link.tag_id), sort_order: link.sort_order });
    } else if (table === 'posts_authors') {
      const link = value as z.output<(typeof TABLES)['posts_authors']>;
      const current = primaryAuthor.get(link.post_id);
      const order = link.sort_order ?? 0;
      if (!current || order < current.order) {
        primaryAuthor.set(ownString(link.post_id), { author: ownString(link.author_id), order });
      }
    } else if (table === 'users') {
      const user = value as z.output<(typeof TABLES)['users']>;
      authors.push({
        key: ownString(user.id),
        email: ownString(user.email ?? null),
        name: ownString(user.name ?? null),
      });
    } else {
      const taken = fromGhost(value as GhostPost);
      if (taken === 'page') pages++;
      else if ('reason' in taken) skipped.push({ id: ownString(taken.id), reason: ownString(taken.reason) });
      else {
        const { sourceId, slug, title } = taken;
        planned.push({
          sourceId: ownString(sourceId),
          slug: ownString(slug),
          title: ownString(title.slice(0, 60)),
          authorKey: null,
          authorId: ownString(taken.authorKey),
        });
      }
    }
  });
  for await (const _ of reading);
  if (!found.has('meta') && !found.has('posts')) {
    throw new ImportFileError(
      file,
      `is not a Ghost export (db: the file has no db[0].meta nor db[0].data.posts); ${GUIDE}.`,
    );
  }
  if (version === null)
    throw new ImportFileError(file, `is not a Ghost export (db.0.meta: it has no version); ${GUIDE}.`);
  const major = Number(/^(\d+)\./.exec(version)?.[1]);
  if (!(major >= 5)) {
    throw new ImportFileError(file, `is an export of Ghost ${version}; this importer reads Ghost 5 and 6 exports.`);
  }
  if (!found.has('posts'))
    throw new ImportFileError(file, `is not a Ghost export (db.0.data.posts: missing); ${GUIDE}.`);

  const tagsOf = new Map<string, { name: string; order: number }[]>();
  for (const link of tagLinks) {
    const name = tagNames.get(link.tag_id);
    if (!name) continue;
    const list = tagsOf.get(link.post_id) ?? [];
    list.push({ name, order: link.sort_order ?? list.length });
    tagsOf.set(link.post_id, list);
  }
  const authorOf = (postId: string, own: string | null) => primaryAuthor.get(postId)?.author ?? own;
  for (const item of planned) item.authorKey = authorOf(item.sourceId, item.authorId);

  return {
    source: 'ghost',
    siteUrl: null,
    authors,
    planned: planned.map(({ authorId: _own, ...item }) => item),
    pages,
    skipped,
    posts: async function* () {
      const posts: SourcePost[] = [];
      // The file was read whole once; a change since then is refused as the first pass would have.
      const reading = walk(file, new Set(['posts']), new Set(), (_table, value) => {
        const taken = fromGhost(value as GhostPost);
        if (taken === 'page' || 'reason' in taken) return;
        taken.tags = (tagsOf.get(taken.sourceId) ?? []).sort((a, b) => a.order - b.order).map((tag) => tag.name);
        taken.authorKey = authorOf(taken.sourceId, taken.authorKey);
        posts.push(taken);
      });
      for await (const _ of reading) yield* posts.splice(0);
    },
  };
}

/**
 * One streamed pass: each element of the tables asked for (and meta), checked by its schema,
 * handed to `take`. Yields after each read, so a caller that iterates can pause the file.
 */
async function* walk(
  file: string,
  tables: ReadonlySet<string>,
  found: Set<string>,
  take: (table: string, value: unknown) => void,
): AsyncGenerator<void> {
  try {
    for await (const item of walkGhostExport(file, tables, DROPPED, found)) {
      const schema = item.table === 'meta' ? meta : TABLES[item.table as keyof typeof TABLES];
      const shaped = schema.safeParse(item.value);
      if (!shaped.success) {
        const issue = shaped.error.issues[0]!;
        const where = item.table === 'meta' ? 'db.0.meta' : `db.0.data.${item.table}.${item.index}`;
        throw new GhostShapeError([where, ...issue.path].join('.'), issue.message);
      }
      if (item.table === 'meta') found.add('meta');
      take(item.table, shaped.data);
      yield;
    }
  } catch (error) {
    if (error instanceof GhostSyntaxError) {
      throw new ImportFileError(file, 'is not JSON (cut short or not a Ghost export?).');
    }
    if (error instanceof GhostShapeError) {
      throw new ImportFileError(file, `is not a Ghost export (${error.where}: ${error.message}); ${GUIDE}.`);
    }
    throw error;
  }
}

function epochMs(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** A Ghost post as a post to import (its tags left empty), a skip, or a page. */
function fromGhost(item: GhostPost): SourcePost | Skip | 'page' {
  if (item.type === 'page') return 'page';
  const title = item.title?.trim() ?? '';
  const status =
    item.status === 'published' ? 'published' : item.status === 'draft' || item.status === 'scheduled' ? 'draft' : null;
  if (title === '') return { id: item.id, reason: 'it has no title' };
  if (status === null) {
    // 'sent': an email-only newsletter, never on the site.
    return {
      id: item.id,
      reason: `"${title.slice(0, 60)}": its status is ${item.status ?? 'missing'} (not on the site)`,
    };
  }
  if (item.html === null || item.html === undefined) {
    return { id: item.id, reason: `"${title.slice(0, 60)}": the export has no HTML for it` };
  }
  const date = epochMs(item.published_at) ?? epochMs(item.created_at);
  if (date === null) return { id: item.id, reason: `"${title.slice(0, 60)}": it has no date` };
  return {
    sourceId: item.id,
    slug: item.slug?.toLowerCase() ?? null,
    title,
    html: item.html,
    excerpt: item.custom_excerpt ?? null,
    status,
    date,
    tags: [],
    authorKey: item.author_id ?? null,
    featureImage: item.feature_image ?? null,
  };
}
