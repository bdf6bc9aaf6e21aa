import type { ArticleDetail } from '../../shared/articleSchema.ts';
import { absoluteUrls, escapeXml } from './markupText.ts';
import type { SiteIdentity } from '../../shared/siteIdentity.ts';
import { paths } from '../../shared/routes.ts';

// RFC 3339 has four-digit years only; JavaScript writes others as "+275760-…" (ISO 8601's expanded
// form), which feed readers refuse. Such a date (an import from before the import checked dates)
// is written as the nearest one RFC 3339 can say.
const FIRST_RFC3339_MS = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_RFC3339_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** An ISO date as RFC 3339 (§5.6 date-time) writes it. */
export function rfc3339(isoDate: string): string {
  const ms = Date.parse(isoDate);
  return new Date(Math.min(Math.max(ms, FIRST_RFC3339_MS), LAST_RFC3339_MS)).toISOString();
}

/**
 * An Atom 1.0 feed of the given articles (newest first). `publicUrl` is the origin without a
 * trailing slash. Each entry carries the article as readers see it: the HTML the server rendered
 * from its Markdown (sanitised there: no raw HTML, only http(s) links and images and paths of
 * this site, the paths made absolute here), escaped as Atom's `type="html"` content.
 */
export function atomFeed(
  publicUrl: string,
  site: SiteIdentity,
  articles: ArticleDetail[],
  /** A tag's feed: its articles only, titled and linked to the tag's page. */
  tag?: { name: string; slug: string },
): string {
  const home = tag ? `${publicUrl}${paths.tag(tag.slug)}` : `${publicUrl}${paths.home}`;
  const self = tag ? `${publicUrl}${paths.tag(tag.slug)}/feed.xml` : `${publicUrl}/feed.xml`;
  const title = tag ? `${tag.name} · ${site.title}` : site.title;
  // An empty feed still needs an <updated>; the epoch says "nothing yet" without inventing a time.
  const updated = rfc3339(articles[0]?.date ?? new Date(0).toISOString());
  const entries = articles.map((article) => {
    const url = `${publicUrl}${paths.article(article.id)}`;
    return `  <entry>
    <id>${escapeXml(url)}</id>
    <title type="text">${escapeXml(article.title)}</title>
    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>
    <published>${rfc3339(article.date)}</published>
    <updated>${rfc3339(article.date)}</updated>
    <author><name>${escapeXml(article.authorName ?? site.title)}</name></author>
    <summary type="text">${escapeXml(article.excerpt)}</summary>
    <content type="html">${escapeXml(absoluteUrls(article.descriptionHtml, publicUrl, url))}</content>
    <link rel="enclosure" href="${escapeXml(article.image)}"/>
  </entry>
`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${escapeXml(home)}</id>
  <title type="text">${escapeXml(title)}</title>
  <subtitle type="text">${escapeXml(site.description)}</subtitle>
  <link rel="self" type="application/atom+xml" href="${escapeXml(self)}"/>
  <link rel="alternate" type="text/html" href="${escapeXml(home)}"/>
  <updated>${updated}</updated>
  <author><name>${escapeXml(site.title)}</name></author>
${entries.join('')}</feed>
`;
}
