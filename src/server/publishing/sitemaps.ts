import type { ArticleReader } from '../articles/createArticles.ts';
import { escapeXml } from './markupText.ts';
import { paths } from '../../shared/routes.ts';

/** The sitemaps protocol's limit of URLs per file. */
export const SITEMAP_MAX_URLS = 50_000;

const READ_BATCH = 1000;
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
const URLSET_CLOSE = '</urlset>\n';

export interface SitemapSource {
  reader: Pick<ArticleReader, 'links' | 'cursorAfter' | 'authorIds' | 'tagSlugs'>;
  /** Origin without a trailing slash. */
  publicUrl: string;
  /** URLs per sitemap file; tests make it small. */
  pageSize: number;
  /** The author pages' slugs (an account without one is linked by its uid, which redirects). */
  authorSlugs(uids: readonly string[]): Promise<Map<string, string>>;
}

/** Where each file of a paged sitemap starts: undefined for the first, then an opaque position. */
export type SitemapStarts = (string | undefined)[];

/** What /sitemap.xml is: one file holding every URL, or an index of article files and author files. */
export type SitemapPlan =
  { kind: 'single' } | { kind: 'index'; articles: SitemapStarts; authors: SitemapStarts; tags: SitemapStarts };

const articleUrl = (publicUrl: string, id: string) => `${publicUrl}${paths.article(id)}`;
/** The author pages' lines: their slug URLs. */
async function authorLines(source: SitemapSource, ids: string[]): Promise<string> {
  const slugs = await source.authorSlugs(ids);
  return ids.map((id) => urlLine(`${source.publicUrl}${paths.author(slugs.get(id) ?? id)}`)).join('');
}
const tagUrl = (publicUrl: string, slug: string) => `${publicUrl}${paths.tag(slug)}`;
const urlLine = (loc: string) => `  <url><loc>${escapeXml(loc)}</loc></url>\n`;

/**
 * One file while the home page, every article and every author page (of authors with articles)
 * fit in it; past that, article files and author files behind an index.
 */
export async function planSitemap(source: SitemapSource): Promise<SitemapPlan> {
  const authors = await source.reader.authorIds(source.pageSize);
  const tags = await source.reader.tagSlugs(source.pageSize);
  const roomForArticles = source.pageSize - 1 - authors.length - tags.length;
  if (roomForArticles >= 1 && (await source.reader.cursorAfter(roomForArticles)) === null) return { kind: 'single' };
  return {
    kind: 'index',
    articles: await articlePageStarts(source),
    authors: await keyPageStarts(source, (limit, after) => source.reader.authorIds(limit, after)),
    tags: await keyPageStarts(source, (limit, after) => source.reader.tagSlugs(limit, after)),
  };
}

/**
 * Where each article file starts: undefined for the first (the home page plus the newest
 * articles), then the cursor after the previous file's last article. Found by walking the index
 * a page at a time, so it never holds more than a handful of keys.
 */
async function articlePageStarts(source: SitemapSource): Promise<SitemapStarts> {
  const starts: SitemapStarts = [undefined];
  // The first file also holds the home page.
  let next = await source.reader.cursorAfter(source.pageSize - 1);
  while (next !== null) {
    starts.push(next);
    next = await source.reader.cursorAfter(source.pageSize, next);
  }
  return starts;
}

/** Where each author (or tag) file starts: undefined, then the last id (or slug) of the previous file. */
async function keyPageStarts(
  source: SitemapSource,
  keys: (limit: number, after?: string) => Promise<string[]>,
): Promise<SitemapStarts> {
  const starts: SitemapStarts = [];
  let after: string | undefined;
  for (;;) {
    const ids = await keys(source.pageSize, after);
    if (ids.length === 0) break;
    starts.push(after);
    if (ids.length < source.pageSize) break;
    after = ids.at(-1);
  }
  return starts;
}

/** Article URLs, newest first, after `after`, at most `count`, read in batches. */
async function* articleLines(source: SitemapSource, after: string | undefined, count: number) {
  let remaining = count;
  let cursor = after;
  while (remaining > 0) {
    const { links, nextCursor } = await source.reader.links(Math.min(READ_BATCH, remaining), cursor);
    if (links.length > 0) yield links.map((link) => urlLine(articleUrl(source.publicUrl, link.id))).join('');
    remaining -= links.length;
    if (nextCursor === null) break;
    cursor = nextCursor;
  }
}

/**
 * The whole sitemap as one file: the home page, the articles newest first, then the author
 * pages and the tag pages. No <lastmod>: articles keep their creation date when edited, so it would tell crawlers
 * an edited article never changed.
 */
export async function* singleSitemap(source: SitemapSource): AsyncGenerator<string> {
  yield URLSET_OPEN;
  yield urlLine(`${source.publicUrl}${paths.home}`);
  yield* articleLines(source, undefined, source.pageSize);
  const authors = await source.reader.authorIds(source.pageSize);
  if (authors.length > 0) yield await authorLines(source, authors);
  const tags = await source.reader.tagSlugs(source.pageSize);
  if (tags.length > 0) yield tags.map((slug) => urlLine(tagUrl(source.publicUrl, slug))).join('');
  yield URLSET_CLOSE;
}

/** One article file of a paged sitemap: the home page first when `after` is undefined. */
export async function* articleSitemap(source: SitemapSource, after: string | undefined): AsyncGenerator<string> {
  yield URLSET_OPEN;
  if (after === undefined) yield urlLine(`${source.publicUrl}${paths.home}`);
  yield* articleLines(source, after, after === undefined ? source.pageSize - 1 : source.pageSize);
  yield URLSET_CLOSE;
}

/** One author file of a paged sitemap: up to a page of author pages after the id `after`. */
export async function authorSitemap(source: SitemapSource, after: string | undefined): Promise<string> {
  const ids = await source.reader.authorIds(source.pageSize, after);
  return URLSET_OPEN + (await authorLines(source, ids)) + URLSET_CLOSE;
}

/** One tag file of a paged sitemap: up to a page of tag pages after the slug `after`. */
export async function tagSitemap(source: SitemapSource, after: string | undefined): Promise<string> {
  const slugs = await source.reader.tagSlugs(source.pageSize, after);
  return URLSET_OPEN + slugs.map((slug) => urlLine(tagUrl(source.publicUrl, slug))).join('') + URLSET_CLOSE;
}

/** The sitemap index naming every file (with absolute URLs, as the protocol requires). */
export function sitemapIndex(publicUrl: string, plan: Extract<SitemapPlan, { kind: 'index' }>): string {
  const file = (name: string, start: string | undefined) =>
    `${publicUrl}/sitemaps/${name}.xml${start === undefined ? '' : `?after=${encodeURIComponent(start)}`}`;
  const locs = [
    ...plan.articles.map((start) => file('articles', start)),
    ...plan.authors.map((start) => file('authors', start)),
    ...plan.tags.map((start) => file('tags', start)),
  ];
  const entries = locs.map((loc) => `  <sitemap><loc>${escapeXml(loc)}</loc></sitemap>\n`);
  return `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}</sitemapindex>\n`;
}
