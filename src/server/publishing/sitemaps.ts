import type { ArticleReader } from '../articles/createArticles.ts';
import { escapeXml } from './markupText.ts';
import { paths } from '../../shared/routes.ts';

/** The sitemaps protocol's limit of URLs per file. */
export const SITEMAP_MAX_URLS = 50_000;

const READ_BATCH = 1000;
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const URLSET_OPEN = `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;

export interface SitemapSource {
  reader: Pick<ArticleReader, 'links' | 'cursorAfter'>;
  /** Origin without a trailing slash. */
  publicUrl: string;
  /** URLs per sitemap file; tests make it small. */
  pageSize: number;
}

const articleUrl = (publicUrl: string, id: string) => `${publicUrl}${paths.article(id)}`;

/**
 * Where each sitemap file starts: undefined for the first (the home page plus the newest
 * articles), then the cursor after the previous file's last article. Found by walking the index
 * a page at a time, so it never holds more than a handful of keys.
 */
export async function sitemapPageStarts(source: SitemapSource): Promise<(string | undefined)[]> {
  const starts: (string | undefined)[] = [undefined];
  // The first file also holds the home page.
  let next = await source.reader.cursorAfter(source.pageSize - 1);
  while (next !== null) {
    starts.push(next);
    next = await source.reader.cursorAfter(source.pageSize, next);
  }
  return starts;
}

/**
 * One sitemap file, streamed: the home page first when `after` is undefined, then up to a page of
 * articles read in batches, newest first. No <lastmod>: articles keep their creation date when
 * edited, so it would tell crawlers an edited article never changed.
 */
export async function* sitemapUrlset(source: SitemapSource, after: string | undefined): AsyncGenerator<string> {
  yield URLSET_OPEN;
  let remaining = source.pageSize;
  if (after === undefined) {
    yield `  <url><loc>${escapeXml(`${source.publicUrl}/`)}</loc></url>\n`;
    remaining -= 1;
  }
  let cursor = after;
  while (remaining > 0) {
    const batch = Math.min(READ_BATCH, remaining);
    const { links, nextCursor } = await source.reader.links(batch, cursor);
    if (links.length > 0) {
      yield links
        .map((link) => `  <url><loc>${escapeXml(articleUrl(source.publicUrl, link.id))}</loc></url>\n`)
        .join('');
    }
    remaining -= links.length;
    if (nextCursor === null) break;
    cursor = nextCursor;
  }
  yield '</urlset>\n';
}

/** The sitemap index naming every file (with absolute URLs, as the protocol requires). */
export function sitemapIndex(publicUrl: string, starts: (string | undefined)[]): string {
  const entries = starts.map((start) => {
    const loc = `${publicUrl}/sitemaps/articles.xml${start === undefined ? '' : `?after=${encodeURIComponent(start)}`}`;
    return `  <sitemap><loc>${escapeXml(loc)}</loc></sitemap>\n`;
  });
  return `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('')}</sitemapindex>\n`;
}
