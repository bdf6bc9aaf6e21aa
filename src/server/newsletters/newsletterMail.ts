import type { ArticleDetail } from '../../shared/articleSchema.ts';
import { absoluteUrls, escapeHtml } from '../publishing/markupText.ts';
import { paths } from '../../shared/routes.ts';

/** Where the unsubscribe link of each message goes in a send's prepared message. */
const UNSUBSCRIBE_SLOT = '\u0000UNSUBSCRIBE\u0000';

export interface PreparedNewsletter {
  subject: string;
  /** The message for one subscriber, with their own unsubscribe link. */
  forRecipient(unsubscribeUrl: string): { subject: string; html: string; text: string };
}

export interface NewsletterSite {
  title: string;
  /** PUBLIC_URL: every link and image in the mail is absolute. */
  publicUrl: string;
}

/**
 * The newsletter of one article (DESIGN.md §9.3), rendered once per send: an HTML part made of
 * tables and inline styles (what mail clients without CSS support still lay out), readable in
 * dark mode, and a plain-text part. No tracking pixel, no rewritten links: links go where the
 * author pointed them, made absolute.
 */
export function prepareNewsletter(site: NewsletterSite, article: ArticleDetail): PreparedNewsletter {
  const articleUrl = `${site.publicUrl}${paths.article(article.id)}`;
  const byline = [article.authorName ?? undefined, formatDate(article.date)].filter(Boolean).join(' · ');
  const body = styleBody(absoluteUrls(article.descriptionHtml, site.publicUrl, articleUrl));
  const image = absoluteUrl(article.image, site.publicUrl);
  const title = escapeHtml(article.title);
  const siteTitle = escapeHtml(site.title);
  const html = `<!doctype html>
<html lang="en" xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${title}</title>
<style>
  @media (prefers-color-scheme: dark) {
    .nl-page { background-color: #111111 !important; }
    .nl-card { background-color: #1c1c1c !important; }
    .nl-text, .nl-text p, .nl-text li, .nl-title { color: #ececec !important; }
    .nl-muted { color: #b3b3b3 !important; }
    .nl-link, .nl-text a { color: #8ab4ff !important; }
    .nl-button { background-color: #8ab4ff !important; color: #111111 !important; }
  }
  @media (max-width: 620px) {
    .nl-card-cell { padding: 20px 16px !important; }
  }
</style>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f2;">
<table role="presentation" class="nl-page" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f2;">
<tr><td align="center" style="padding:24px 8px;">
<table role="presentation" class="nl-card" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border-radius:6px;">
<tr><td class="nl-card-cell nl-muted" style="padding:24px 32px 0 32px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:20px;color:#5f5f5f;">
<a class="nl-link" href="${escapeHtml(site.publicUrl)}/" style="color:#5f5f5f;text-decoration:none;font-weight:600;">${siteTitle}</a>
</td></tr>
<tr><td class="nl-card-cell" style="padding:16px 32px 8px 32px;">
<h1 class="nl-title" style="margin:0;font-family:Georgia,'Times New Roman',serif;font-size:30px;line-height:36px;font-weight:700;color:#1a1a1a;"><a class="nl-title" href="${escapeHtml(articleUrl)}" style="color:#1a1a1a;text-decoration:none;">${title}</a></h1>
</td></tr>
<tr><td class="nl-card-cell nl-muted" style="padding:0 32px 16px 32px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:14px;line-height:20px;color:#5f5f5f;">${escapeHtml(byline)}</td></tr>
<tr><td style="padding:0;">
<a href="${escapeHtml(articleUrl)}"><img src="${escapeHtml(image)}" width="600" alt="" style="display:block;width:100%;max-width:600px;height:auto;border:0;"></a>
</td></tr>
<tr><td class="nl-card-cell nl-text" style="padding:24px 32px 8px 32px;font-family:Georgia,'Times New Roman',serif;font-size:18px;line-height:28px;color:#1a1a1a;">
${body}
</td></tr>
<tr><td class="nl-card-cell" style="padding:8px 32px 32px 32px;">
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr>
<td class="nl-button" style="border-radius:4px;background-color:#1a4fd6;">
<a class="nl-button" href="${escapeHtml(articleUrl)}" style="display:inline-block;padding:12px 20px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:20px;color:#ffffff;text-decoration:none;font-weight:600;">Read it on ${siteTitle}</a>
</td></tr></table>
</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
<tr><td class="nl-muted" style="padding:16px 32px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:13px;line-height:20px;color:#5f5f5f;text-align:center;">
You get this because you subscribed to ${siteTitle}.<br>
<a class="nl-link" href="${UNSUBSCRIBE_SLOT}" style="color:#5f5f5f;text-decoration:underline;">Unsubscribe</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  const text = [
    article.title,
    byline,
    '',
    absoluteMarkdownLinks(article.description, site.publicUrl),
    '',
    `Read it on ${site.title}: ${articleUrl}`,
    '',
    '--',
    `You get this because you subscribed to ${site.title}.`,
    `Unsubscribe: ${UNSUBSCRIBE_SLOT}`,
    '',
  ].join('\n');
  return {
    subject: article.title,
    forRecipient(unsubscribeUrl) {
      return {
        subject: article.title,
        html: html.replace(UNSUBSCRIBE_SLOT, escapeHtml(unsubscribeUrl)),
        text: text.replace(UNSUBSCRIBE_SLOT, unsubscribeUrl),
      };
    },
  };
}

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function absoluteUrl(url: string, publicUrl: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? publicUrl + url : url;
}

/** Markdown links and images to a path of this site, made absolute for the text part. */
function absoluteMarkdownLinks(markdown: string, publicUrl: string): string {
  return markdown.replace(/\]\(\/(?!\/)/g, `](${publicUrl}/`);
}

/**
 * Inline styles on the article's own elements: a mail client may drop the <style> element, and
 * an image wider than the phone would push the whole message sideways.
 */
function styleBody(html: string): string {
  return html
    .replace(/<img\b/g, '<img style="max-width:100%;height:auto;border:0;"')
    .replace(/<a\b(?![^>]*\bstyle=)/g, '<a style="color:#1a4fd6;"')
    .replace(/<p>/g, '<p style="margin:0 0 18px 0;">')
    .replace(/<pre>/g, '<pre style="white-space:pre-wrap;font-size:14px;line-height:20px;">')
    .replace(
      /<blockquote>/g,
      '<blockquote style="margin:0 0 18px 0;padding-left:16px;border-left:3px solid #cccccc;">',
    );
}
