import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Transaction } from 'kysely';
import { newArticleId } from '../../articles/articleId.ts';
import { createArticlesRepository, type NewArticle } from '../../articles/articlesRepository.ts';
import { imageOrigin } from '../../articles/imageOrigin.ts';
import type { Database } from '../../db/database.ts';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { Identity } from '../../identity/createIdentity.ts';
import type { Images } from '../../images/createImages.ts';
import { DESCRIPTION_MAX_LENGTH, parseArticleInput } from '../../../shared/articleSchema.ts';
import { emailField } from '../../../shared/identityRequests.ts';
import { EXCERPT_MAX_LENGTH } from '../../../shared/markdown/markdownExcerpt.ts';
import type { Role } from '../../../shared/roles.ts';
import { TAGS_MAX } from '../../../shared/tags.ts';
import { ownString } from './ownString.ts';
import { htmlToMarkdown, markdownUrl } from './htmlToMarkdown.ts';
import type { ImageFiles, Skip, SourceAuthor, SourceExport, SourcePost } from './sourcePost.ts';

export type Progress = (done: number, total: number) => void;

/** A post's HTML above this is not converted (turndown's time and memory grow with it): skipped, named. */
export const POST_HTML_MAX_BYTES = 2 * 1024 * 1024;
/** Articles written per transaction. */
const WRITE_BATCH = 100;

export interface ImportDeps {
  database: Database;
  /** Made once the schema is up to date (the import migrates first, as npm start does). */
  services: () => Promise<{
    accounts: Pick<Identity['admin'], 'importAccounts' | 'findUser'>;
    images: Pick<Images, 'storeFile' | 'recordUses'>;
  }>;
  publicUrl: string;
  /** Every new author account's role (NEW_ACCOUNT_ROLE). */
  role: Role;
  now: number;
  /** The cover of a post that has none of its own (Inkwell articles need one). */
  cover?: string | undefined;
  progress?: ((what: string) => Progress) | undefined;
}

export interface ImportSummary {
  text: string;
  json: {
    posts: { imported: number; published: number; drafts: number; skipped: number };
    pages: number;
    authors: { created: number; existing: number };
    images: { stored: number; notFound: number };
  };
}

const quiet: Progress = () => {};

/** An article ready to write, with the record that makes a re-run skip it. */
type Row = NewArticle & { sourceId: string; slug: string | null };

/**
 * Brings an export's posts in as articles, one post at a time as the reader's second pass
 * yields them (memory follows a batch, not the file). The reader's first pass has read and
 * checked the whole file, so a broken file is refused before this begins. First what the plan
 * alone decides (already imported, an id twice) and the authors' accounts (made without
 * passwords); then each post is converted, its images stored as uploads, and checked as the
 * API would (no author, too long, no cover, not a valid article: each a skip with a line); the
 * articles are written with their records in batches of WRITE_BATCH, one transaction each, so
 * the live site is never held for the whole import and a run cut short (the process killed)
 * leaves whole batches that a re-run skips and carries on after.
 */
export async function importPosts(
  exported: SourceExport,
  imageFiles: ImageFiles | null,
  deps: ImportDeps,
): Promise<ImportSummary> {
  const progress = (what: string) => deps.progress?.(what) ?? quiet;
  const { db } = deps.database;
  const skipped: Skip[] = [...exported.skipped];
  const skip = (post: { sourceId: string; title: string }, reason: string) =>
    // Owned copies: a post's strings are pieces of the reader's 256 KB reads (ownString.ts).
    skipped.push({ id: ownString(post.sourceId), reason: ownString(`"${post.title.slice(0, 60)}": ${reason}`) });

  // What earlier runs brought: skipped now, and their old addresses still lead to them.
  const recorded = await db
    .selectFrom('moved_in_articles')
    .select(['source_id', 'slug', 'article_id'])
    .where('source', '=', exported.source)
    .execute();
  const done = new Set(recorded.map((row) => row.source_id));
  const bySlug = new Map(recorded.flatMap((row) => (row.slug ? [[row.slug, row.article_id] as const] : [])));
  // Each post to bring: its article id, known before any text so links between posts resolve.
  const fresh = new Map<string, string>();
  const wantedAuthors = new Set<string | null>();
  for (const post of exported.planned) {
    if (done.has(post.sourceId)) skip(post, 'already imported');
    else if (fresh.has(post.sourceId)) skip(post, 'this id appears earlier in the file');
    else {
      const id = newArticleId();
      fresh.set(post.sourceId, id);
      wantedAuthors.add(post.authorKey);
      if (post.slug && !bySlug.has(post.slug)) bySlug.set(post.slug, id);
    }
  }

  const { accounts, images } = await deps.services();
  const authorIds = await authorAccounts(exported.authors, wantedAuthors, accounts, deps);

  // Text: HTML to Markdown, links to old posts rewritten to the articles they become.
  const rewriteLink = (href: string) => {
    const slug = oldPostSlug(href, exported.siteUrl);
    const id = slug === null ? undefined : bySlug.get(slug);
    // Ghost's placeholder for its own address: what is not a post is left as a path of this site.
    return id ? `/article/${id}` : href.replace(/^__GHOST_URL__(?=\/|$)/, '') || '/';
  };

  // Images: each file stored once as an upload (with its variants); its URL remembered.
  const stored = new Map<string, string | null>();
  let notFound = 0;
  const resolve = async (src: string, ownerId: string): Promise<string | null> => {
    if (!imageFiles) return null;
    const file = imageFiles(src);
    if (file === null) return null;
    if (!stored.has(file)) stored.set(file, await images.storeFile(ownerId, await readFile(file), deps.now));
    return stored.get(file)!;
  };

  /** One post as an article to write, or null when it is skipped (with its line). */
  const prepare = async (post: SourcePost, id: string): Promise<Row | null> => {
    const authorId = post.authorKey === null ? undefined : authorIds.accounts.get(post.authorKey);
    if (!authorId) {
      skip(post, post.authorKey === null ? 'it names no author' : `its author ${post.authorKey} has no email address`);
      return null;
    }
    if (Buffer.byteLength(post.html) > POST_HTML_MAX_BYTES) {
      skip(post, `its HTML is over ${POST_HTML_MAX_BYTES / 1024 / 1024} MB`);
      return null;
    }
    const converted = htmlToMarkdown(post.html, rewriteLink);
    let markdown = converted.markdown;
    const length = [...markdown].length;
    if (length > DESCRIPTION_MAX_LENGTH) {
      skip(post, `its text is ${length} characters as Markdown; an article holds at most ${DESCRIPTION_MAX_LENGTH}`);
      return null;
    }
    if (markdown === '') {
      skip(post, 'it has no text');
      return null;
    }
    for (const src of new Set(converted.images)) {
      const url = await resolve(src, authorId);
      if (url) markdown = markdown.split(`](${markdownUrl(src)})`).join(`](${url})`);
      else if (!isWebAddress(src)) notFound++;
    }
    let cover: string | null = null;
    if (post.featureImage) {
      const url = await resolve(post.featureImage, authorId);
      if (!url && !isWebAddress(post.featureImage)) notFound++;
      cover = url ?? (isWebAddress(post.featureImage) ? post.featureImage : null);
    }
    cover ??= firstWebImage(markdown) ?? deps.cover ?? null;
    if (cover === null) {
      skip(post, 'it has no cover image (give --cover URL for posts without one)');
      return null;
    }
    const tags = post.tags.slice(0, TAGS_MAX);
    const checked = parseArticleInput({ image: cover, title: post.title, description: markdown, tags });
    if (!checked.success) {
      skip(post, checked.errors.map((error) => error.message).join(' '));
      return null;
    }
    return {
      id,
      authorId,
      date: post.date,
      status: post.status,
      image: checked.data.image,
      title: checked.data.title,
      description: checked.data.description,
      tags: checked.data.tags ?? [],
      excerpt: excerptOf(post.excerpt),
      sourceId: post.sourceId,
      slug: post.slug,
    };
  };

  // The articles and their records, a batch per transaction.
  const write = async (batch: Row[]) => {
    if (batch.length === 0) return;
    await db.transaction().execute(async (trx: Transaction<DatabaseSchema>) => {
      await createArticlesRepository(trx, [], imageOrigin(deps.publicUrl)).insertBatch(batch);
      await trx
        .insertInto('moved_in_articles')
        .values(
          batch.map((row) => ({
            source: exported.source,
            source_id: row.sourceId,
            slug: row.slug,
            article_id: row.id,
            imported_at: deps.now,
          })),
        )
        .execute();
      // The uploads these articles show are kept past the unused-image cleanup's first day.
      for (const row of batch) await images.recordUses(row.id, [row.image, row.description], trx);
    });
  };

  const importing = progress('Importing posts');
  const total = fresh.size;
  let seen = 0;
  let imported = 0;
  let published = 0;
  let batch: Row[] = [];
  for await (const post of exported.posts()) {
    const id = fresh.get(post.sourceId);
    if (id === undefined) continue; // skipped by the plan (already here, or its id came before)
    fresh.delete(post.sourceId);
    const row = await prepare(post, id);
    importing(++seen, total);
    if (row === null) continue;
    batch.push(row);
    imported++;
    if (row.status === 'published') published++;
    if (batch.length === WRITE_BATCH) {
      await write(batch);
      batch = [];
    }
  }
  await write(batch);

  const storedCount = [...stored.values()].filter(Boolean).length;
  const name = exported.source === 'ghost' ? 'Ghost' : 'WordPress';
  const lines = [
    `${name} import: ${imported} posts imported (${published} published, ${imported - published} drafts), ` +
      `${skipped.length} skipped, ${exported.pages} pages left out.`,
    `Authors: ${authorIds.created} accounts made without a password (they sign in through "Forgot password?"), ` +
      `${authorIds.existing} already here.`,
    `Images: ${storedCount} stored as uploads, ${notFound} not found${imageFiles ? '' : ' (no image folder given)'}.`,
    ...skipped.map((item) => `  skipped post ${item.id}: ${item.reason}`),
  ];
  return {
    text: lines.join('\n'),
    json: {
      posts: { imported, published, drafts: imported - published, skipped: skipped.length },
      pages: exported.pages,
      authors: { created: authorIds.created, existing: authorIds.existing },
      images: { stored: storedCount, notFound },
    },
  };
}

/** The export's authors of posts to import, as accounts: found by address, or made without a password. */
async function authorAccounts(
  authors: SourceAuthor[],
  wanted: ReadonlySet<string | null>,
  accounts: Pick<Identity['admin'], 'importAccounts' | 'findUser'>,
  deps: ImportDeps,
) {
  const result = { accounts: new Map<string, string>(), created: 0, existing: 0 };
  const toMake = new Map<string, { uid: string; name: string | null }>();
  for (const author of authors) {
    if (!wanted.has(author.key)) continue;
    const email = emailField.safeParse(author.email ?? '');
    if (!email.success) continue;
    const address = email.data.toLowerCase();
    const existing = await accounts.findUser(address);
    if (existing) {
      result.accounts.set(author.key, existing.uid);
      result.existing++;
      continue;
    }
    const planned = toMake.get(address) ?? { uid: randomBytes(21).toString('base64url'), name: author.name };
    toMake.set(address, planned);
    result.accounts.set(author.key, planned.uid);
  }
  if (toMake.size > 0) {
    const made = await accounts.importAccounts(
      [...toMake].map(([email, { uid, name }]) => ({
        uid,
        email,
        firebasePassword: null,
        displayName: name,
        photoUrl: null,
        emailVerified: false,
        disabled: false,
        createdAt: deps.now,
        lastLoginAt: null,
        providers: [],
      })),
      { hashParameters: null, role: deps.role, progress: () => {} },
    );
    result.created = made.imported;
  }
  return result;
}

/**
 * The slug of a link to a post of the old blog, or null for any other link: the link is
 * `__GHOST_URL__/…`, root-relative or under the old site's address, and its path ends in a slug
 * (`/slug/`, `/2024/01/02/slug/`).
 */
function oldPostSlug(href: string, siteUrl: string | null): string | null {
  let path: string;
  if (href.startsWith('__GHOST_URL__/')) path = href.slice('__GHOST_URL__'.length);
  else if (href.startsWith('/') && !href.startsWith('//')) path = href;
  else if (siteUrl && href.startsWith(`${siteUrl.replace(/\/$/, '')}/`))
    path = href.slice(siteUrl.replace(/\/$/, '').length);
  else return null;
  const match = /^(?:\/\d{4}(?:\/\d{2}){0,2})?\/([a-z0-9][a-z0-9-]*)\/?(?:[?#].*)?$/i.exec(path);
  return match ? match[1]!.toLowerCase() : null;
}

function isWebAddress(value: string): boolean {
  return /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value);
}

function firstWebImage(markdown: string): string | null {
  const match = /!\[[^\]]*\]\((https?:\/\/[^)\s]+)\)/.exec(markdown);
  return match ? match[1]! : null;
}

function excerptOf(text: string | null): string | undefined {
  const plain = text?.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  if (!plain) return undefined;
  const characters = [...plain];
  return characters.length <= EXCERPT_MAX_LENGTH
    ? plain
    : `${characters
        .slice(0, EXCERPT_MAX_LENGTH - 1)
        .join('')
        .trimEnd()}…`;
}
