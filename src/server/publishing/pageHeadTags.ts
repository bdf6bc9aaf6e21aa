import type { Article } from '../../shared/articleSchema.ts';
import type { AuthorProfile } from '../../shared/authorProfile.ts';
import { SITE_IDENTITY_ELEMENT_ID, type SiteIdentity } from '../../shared/siteIdentity.ts';
import { escapeHtml, jsonForScript, summarise } from './markupText.ts';
import { paths } from '../../shared/routes.ts';

const meta = (name: string, content: string) => `<meta name="${name}" content="${escapeHtml(content)}" />`;
const property = (name: string, content: string) => `<meta property="${name}" content="${escapeHtml(content)}" />`;
const canonical = (url: string) => `<link rel="canonical" href="${escapeHtml(url)}" />`;
const joinTags = (tags: string[]) => [...tags, ''].join('\n    ');

/** A page's <title>: its own name, then the site's (docs/product.md, Screens: every title ends with SITE_TITLE). */
export const pageTitle = (site: SiteIdentity, name: string) => `${name} – ${site.title}`;

/**
 * What every HTML shell carries whatever the page: `og:site_name`, and the site identity as a
 * JSON data block the web app reads (src/shared/siteIdentity.ts), so the masthead needs no
 * request. A data block is never executed: the CSP's script-src does not apply to it.
 */
export function siteShellTags(site: SiteIdentity): string {
  return joinTags([
    property('og:site_name', site.title),
    `<script type="application/json" id="${SITE_IDENTITY_ELEMENT_ID}">${jsonForScript(site)}</script>`,
  ]);
}

/** The title and description of a screen that brings none of its own (sign-in, profile, 404...). */
export function defaultHeadTags(site: SiteIdentity, name?: string): string {
  return joinTags([
    `<title>${escapeHtml(name === undefined ? site.title : pageTitle(site, name))}</title>`,
    meta('description', site.description),
  ]);
}

/** The home page's site-level tags. `publicUrl` is the origin without a trailing slash. */
export function homeHeadTags(publicUrl: string, site: SiteIdentity): string {
  const url = `${publicUrl}${paths.home}`;
  return joinTags([
    `<title>${escapeHtml(site.title)}</title>`,
    meta('description', site.description),
    canonical(url),
    property('og:type', 'website'),
    property('og:title', site.title),
    property('og:description', site.description),
    property('og:url', url),
    meta('twitter:card', 'summary'),
    meta('twitter:title', site.title),
    meta('twitter:description', site.description),
  ]);
}

/** An author page's tags: their name, canonical URL and a profile card. */
export function authorHeadTags(publicUrl: string, site: SiteIdentity, author: AuthorProfile): string {
  const url = `${publicUrl}${paths.author(author.slug)}`;
  const name = author.name?.trim() || 'An author';
  const description = author.bio !== '' ? summarise(author.bio) : `Articles by ${name} on ${site.title}.`;
  return joinTags([
    `<title>${escapeHtml(pageTitle(site, name))}</title>`,
    meta('description', description),
    canonical(url),
    property('og:type', 'profile'),
    property('og:title', name),
    property('og:description', description),
    property('og:url', url),
    ...(author.photoUrl ? [property('og:image', author.photoUrl)] : []),
    meta('twitter:card', 'summary'),
    meta('twitter:title', name),
    meta('twitter:description', description),
  ]);
}

/** One article's title, description, canonical URL, Open Graph, Twitter card and JSON-LD. */
export function articleHeadTags(publicUrl: string, site: SiteIdentity, article: Article): string {
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
    ...(article.authorName
      ? {
          author: {
            '@type': 'Person',
            name: article.authorName,
            url: `${publicUrl}${paths.author(article.authorSlug ?? article.authorId)}`,
          },
        }
      : {}),
    publisher: { '@type': 'Organization', name: site.title },
  };
  return joinTags([
    `<title>${escapeHtml(pageTitle(site, article.title))}</title>`,
    meta('description', description),
    canonical(url),
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
  ]);
}
