import { paths } from '../../shared/routes.ts';

/**
 * robots.txt: everything public may be crawled; the signed-in screens and the sign-in service
 * hold nothing for a search index. The API stays open: crawlers that render the app need it.
 */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    `Disallow: ${paths.profile}`,
    `Disallow: ${paths.newArticle}`,
    'Disallow: /identity/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
