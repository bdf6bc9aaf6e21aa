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
import { collectGarbage } from './collectGarbage.ts';
import { htmlToMarkdown, markdownUrl } from './htmlToMarkdown.ts';
import type { ImageFiles, Skip, SourceExport, SourcePost } from './sourcePost.ts';

export type Progress = (done: number, total: number) => void;

/** A post's HTML above this is not converted (turndown's time and memory grow with it): skipped, named. */
export const POST_HTML_MAX_BYTES = 2 * 1024 * 1024;
const WRITE_BATCH = 100;
/** Posts converted between two full collections (collectGarbage.ts): about 10 MB of HTML. */
const GC_EVERY = 500;

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

/** A post on its way in: its article id, Markdown, cover and author account. */
interface Prepared {
  post: SourcePost;
  id: string;
  markdown: string;
  images: string[];
  authorId: string;
  cover: string | null;
}

const quiet: Progress = () => {};

/**
 * Brings an export's posts in as articles. Everything that can refuse a post is decided first
 * (already imported, no author, too long, no cover, not a valid article: each a skip with a
 * line); then authors become accounts (without passwords) and images uploads; then every
 * article and its record go in one transaction, so a failure there leaves no article behind
 * (the accounts and uploads made before stay: a re-run uses the accounts, and uploads no
 * article uses are removed after a day).
 */
export async function importPosts(
  exported: SourceExport,
  imageFiles: ImageFiles | null,
  deps: ImportDeps,
): Promise<ImportSummary> {
  const progress = (what: string) => deps.progress?.(what) ?? quiet;
  const { db } = deps.database;
  const skipped: Skip[] = [...exported.skipped];
  const skip = (post: SourcePost, reason: string) =>
    skipped.push({ id: post.sourceId, reason: `"${post.title.slice(0, 60)}": ${reason}` });

  // The file's text and the parser's leftovers go before the conversion adds its own.
  collectGarbage();
  // What earlier runs brought: skipped now, and their old addresses still lead to them.
  const recorded = await db
    .selectFrom('moved_in_articles')
    .select(['source_id', 'slug', 'article_id'])
    .where('source', '=', exported.source)
    .execute();
  const done = new Set(recorded.map((row) => row.source_id));
  const bySlug = new Map(recorded.flatMap((row) => (row.slug ? [[row.slug, row.article_id] as const] : [])));
  const fresh: { post: SourcePost; id: string }[] = [];
  const seen = new Set<string>();
  for (const post of exported.posts) {
    if (done.has(post.sourceId)) skip(post, 'already imported');
    else if (seen.has(post.sourceId)) skip(post, 'this id appears earlier in the file');
    else {
      seen.add(post.sourceId);
      const id = newArticleId();
      fresh.push({ post, id });
      if (post.slug && !bySlug.has(post.slug)) bySlug.set(post.slug, id);
    }
  }

  const { accounts, images } = await deps.services();
  const authorIds = await authorAccounts(exported, fresh, accounts, deps);

  // Text: HTML to Markdown, links to old posts rewritten to the articles they become.
  const rewriteLink = (href: string) => {
    const slug = oldPostSlug(href, exported.siteUrl);
    const id = slug === null ? undefined : bySlug.get(slug);
    // Ghost's placeholder for its own address: what is not a post is left as a path of this site.
    return id ? `/article/${id}` : href.replace(/^__GHOST_URL__(?=\/|$)/, '') || '/';
  };
  const prepared: Prepared[] = [];
  const converting = progress('Converting posts');
  for (const [index, { post, id }] of fresh.entries()) {
    converting(index + 1, fresh.length);
    if (index % GC_EVERY === GC_EVERY - 1) collectGarbage();
    const authorId = post.authorKey === null ? undefined : authorIds.accounts.get(post.authorKey);
    if (!authorId) {
      skip(post, post.authorKey === null ? 'it names no author' : `its author ${post.authorKey} has no email address`);
      continue;
    }
    if (Buffer.byteLength(post.html) > POST_HTML_MAX_BYTES) {
      skip(post, `its HTML is over ${POST_HTML_MAX_BYTES / 1024 / 1024} MB`);
      continue;
    }
    const { markdown, images: found } = htmlToMarkdown(post.html, rewriteLink);
    post.html = ''; // held no longer than needed: 10,000 posts' HTML need not sit in memory twice
    if ([...markdown].length > DESCRIPTION_MAX_LENGTH) {
      skip(
        post,
        `its text is ${[...markdown].length} characters as Markdown; an article holds at most ${DESCRIPTION_MAX_LENGTH}`,
      );
      continue;
    }
    if (markdown === '') {
      skip(post, 'it has no text');
      continue;
    }
    prepared.push({ post, id, markdown, images: found, authorId, cover: post.featureImage });
  }

  // Images: each file stored once as an upload (with its variants), its URLs rewritten.
  const stored = new Map<string, string | null>();
  let notFound = 0;
  const storing = progress('Storing images');
  const resolve = async (src: string, ownerId: string): Promise<string | null> => {
    if (!imageFiles) return null;
    const file = imageFiles(src);
    if (file === null) return null;
    if (!stored.has(file)) stored.set(file, await images.storeFile(ownerId, await readFile(file), deps.now));
    return stored.get(file)!;
  };
  for (const [index, item] of prepared.entries()) {
    storing(index + 1, prepared.length);
    for (const src of new Set(item.images)) {
      const url = await resolve(src, item.authorId);
      if (url) item.markdown = item.markdown.split(`](${markdownUrl(src)})`).join(`](${url})`);
      else if (!isWebAddress(src)) notFound++;
    }
    if (item.cover) {
      const url = await resolve(item.cover, item.authorId);
      if (!url && !isWebAddress(item.cover)) notFound++;
      item.cover = url ?? (isWebAddress(item.cover) ? item.cover : null);
    }
  }

  // The articles: checked by the API's own rules, then written in one transaction.
  const rows: (NewArticle & { post: SourcePost })[] = [];
  for (const item of prepared) {
    const cover = item.cover ?? firstWebImage(item.markdown) ?? deps.cover ?? null;
    if (cover === null) {
      skip(item.post, 'it has no cover image (give --cover URL for posts without one)');
      continue;
    }
    const tags = item.post.tags.slice(0, TAGS_MAX);
    const checked = parseArticleInput({ image: cover, title: item.post.title, description: item.markdown, tags });
    if (!checked.success) {
      skip(item.post, checked.errors.map((error) => error.message).join(' '));
      continue;
    }
    rows.push({
      id: item.id,
      authorId: item.authorId,
      date: item.post.date,
      status: item.post.status,
      image: checked.data.image,
      title: checked.data.title,
      description: checked.data.description,
      tags: checked.data.tags ?? [],
      excerpt: excerptOf(item.post.excerpt),
      post: item.post,
    });
  }
  const writing = progress('Writing articles');
  await db.transaction().execute(async (trx: Transaction<DatabaseSchema>) => {
    const repository = createArticlesRepository(trx, [], imageOrigin(deps.publicUrl));
    for (let start = 0; start < rows.length; start += WRITE_BATCH) {
      const batch = rows.slice(start, start + WRITE_BATCH);
      await repository.insertBatch(batch);
      await trx
        .insertInto('moved_in_articles')
        .values(
          batch.map((row) => ({
            source: exported.source,
            source_id: row.post.sourceId,
            slug: row.post.slug,
            article_id: row.id,
            imported_at: deps.now,
          })),
        )
        .execute();
      // The uploads these articles show are kept past the unused-image cleanup's first day.
      for (const row of batch) await images.recordUses(row.id, [row.image, row.description], trx);
      writing(Math.min(start + WRITE_BATCH, rows.length), rows.length);
    }
  });

  const published = rows.filter((row) => row.status === 'published').length;
  const storedCount = [...stored.values()].filter(Boolean).length;
  const name = exported.source === 'ghost' ? 'Ghost' : 'WordPress';
  const lines = [
    `${name} import: ${rows.length} posts imported (${published} published, ${rows.length - published} drafts), ` +
      `${skipped.length} skipped, ${exported.pages} pages left out.`,
    `Authors: ${authorIds.created} accounts made without a password (they sign in through "Forgot password?"), ` +
      `${authorIds.existing} already here.`,
    `Images: ${storedCount} stored as uploads, ${notFound} not found${imageFiles ? '' : ' (no image folder given)'}.`,
    ...skipped.map((item) => `  skipped post ${item.id}: ${item.reason}`),
  ];
  return {
    text: lines.join('\n'),
    json: {
      posts: { imported: rows.length, published, drafts: rows.length - published, skipped: skipped.length },
      pages: exported.pages,
      authors: { created: authorIds.created, existing: authorIds.existing },
      images: { stored: storedCount, notFound },
    },
  };
}

/** The export's authors of posts to import, as accounts: found by address, or made without a password. */
async function authorAccounts(
  exported: SourceExport,
  fresh: { post: SourcePost }[],
  accounts: Pick<Identity['admin'], 'importAccounts' | 'findUser'>,
  deps: ImportDeps,
) {
  const wanted = new Set(fresh.map(({ post }) => post.authorKey));
  const result = { accounts: new Map<string, string>(), created: 0, existing: 0 };
  const toMake = new Map<string, { uid: string; name: string | null }>();
  for (const author of exported.authors) {
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
