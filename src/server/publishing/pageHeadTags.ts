import type { Article } from '../../shared/articleSchema.ts';
import { escapeHtml, jsonForScript, summarise } from './markupText.ts';
import { paths } from '../../shared/routes.ts';

export const SITE_NAME = 'Inkwell';
export const SITE_DESCRIPTION = 'Inkwell: articles worth reading.';

const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}" />`;
const property = (name: string, content: string) => `<meta property="${name}" content="${escapeHtml(content)}" />`;
const canonical = (url: string) => `<link rel="canonical" href="${escapeHtml(url)}" />`;

/** The home page's site-level tags. `publicUrl` is the origin without a trailing slash. */
export function homeHeadTags(publicUrl: string): string {
  const url = `${publicUrl}/`;
  return [
    `<title>${SITE_NAME}</title>`,
    meta('description', SITE_DESCRIPTION),
    canonical(url),
    property('og:site_name', SITE_NAME),
    property('og:type', 'website'),
    property('og:title', SITE_NAME),
    property('og:description', SITE_DESCRIPTION),
    property('og:url', url),
    meta('twitter:card', 'summary'),
    meta('twitter:title', SITE_NAME),
    meta('twitter:description', SITE_DESCRIPTION),
    '',
  ].join('\n    ');
}

/** One article's title, description, canonical URL, Open Graph, Twitter card and JSON-LD. */
export function articleHeadTags(publicUrl: string, article: Article): string {
  const url = `${publicUrl}${paths.article(article.id)}`;
  const description = summarise(article.excerpt);
  const structured = {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: article.title,
    description,
    image: [article.image],
    datePublished: article.date,
    url,
    mainEntityOfPage: url,
    ...(article.authorName ? { author: { '@type': 'Person', name: article.authorName } } : {}),
    publisher: { '@type': 'Organization', name: SITE_NAME },
  };
  return [
    `<title>${escapeHtml(article.title)} · ${SITE_NAME}</title>`,
    meta('description', description),
    canonical(url),
    property('og:site_name', SITE_NAME),
    property('og:type', 'article'),
    property('og:title', article.title),
    property('og:description', description),
    property('og:image', article.image),
    property('og:url', url),
    property('article:published_time', article.date),
    ...(article.authorName ? [meta('author', article.authorName)] : []),
    meta('twitter:card', 'summary_large_image'),
    meta('twitter:title', article.title),
    meta('twitter:description', description),
    meta('twitter:image', article.image),
    // A data block, never executed: the CSP's script-src does not apply to it.
    `<script type="application/ld+json">${jsonForScript(structured)}</script>`,
    '',
  ].join('\n    ');
}
