import type { ArticleDetail } from '../../shared/articleSchema.ts';
import { escapeXml } from './markupText.ts';
import type { SiteIdentity } from '../../shared/siteIdentity.ts';
import { paths } from '../../shared/routes.ts';

/**
 * An Atom 1.0 feed of the given articles (newest first). `publicUrl` is the origin without a
 * trailing slash. Each entry carries the article as readers see it: the HTML the server rendered
 * from its Markdown (sanitised there: no raw HTML, only http(s) links and images, every URL
 * absolute), escaped as Atom's `type="html"` content.
 */
export function atomFeed(publicUrl: string, site: SiteIdentity, articles: ArticleDetail[]): string {
  const home = `${publicUrl}/`;
  // An empty feed still needs an <updated>; the epoch says "nothing yet" without inventing a time.
  const updated = articles[0]?.date ?? new Date(0).toISOString();
  const entries = articles.map((article) => {
    const url = `${publicUrl}${paths.article(article.id)}`;
    return `  <entry>
    <id>${escapeXml(url)}</id>
    <title type="text">${escapeXml(article.title)}</title>
    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>
    <published>${article.date}</published>
    <updated>${article.date}</updated>
    <author><name>${escapeXml(article.authorName ?? site.title)}</name></author>
    <summary type="text">${escapeXml(article.excerpt)}</summary>
    <content type="html">${escapeXml(article.descriptionHtml)}</content>
    <link rel="enclosure" href="${escapeXml(article.image)}"/>
  </entry>
`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${escapeXml(home)}</id>
  <title type="text">${escapeXml(site.title)}</title>
  <subtitle type="text">${escapeXml(site.description)}</subtitle>
  <link rel="self" type="application/atom+xml" href="${escapeXml(`${publicUrl}/feed.xml`)}"/>
  <link rel="alternate" type="text/html" href="${escapeXml(home)}"/>
  <updated>${updated}</updated>
  <author><name>${escapeXml(site.title)}</name></author>
${entries.join('')}</feed>
`;
}
