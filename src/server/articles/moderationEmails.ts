import { paths } from '../../shared/routes.ts';

/**
 * The mails to an article's author when an editor hides it or publishes their submitted draft
 * (DESIGN.md §8.2). Like every mail, they name the site as its operator calls it (SITE_TITLE).
 * The recipient is added by whoever knows the author's address (the composition root).
 */
export interface AuthorMail {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function mail(subject: string, paragraphs: string[], link: string): AuthorMail {
  const text = ['Hello,', '', ...paragraphs.flatMap((p) => [p, '']), link].join('\n');
  const html = ['<p>Hello,</p>', ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`)]
    .concat(`<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`)
    .join('\n');
  return { subject, text, html };
}

export function articleHiddenMail(options: {
  siteTitle: string;
  publicUrl: string;
  articleId: string;
  title: string;
  reason: string;
}): AuthorMail {
  return mail(
    `Your article on ${options.siteTitle} was hidden`,
    [
      `An editor of ${options.siteTitle} hid your article "${options.title}". Readers no longer see it; you still do.`,
      `The editor's reason: ${options.reason}`,
    ],
    `${options.publicUrl}${paths.article(options.articleId)}`,
  );
}

export function draftPublishedMail(options: {
  siteTitle: string;
  publicUrl: string;
  articleId: string;
  title: string;
}): AuthorMail {
  return mail(
    `Your article is published on ${options.siteTitle}`,
    [`An editor of ${options.siteTitle} published your article "${options.title}", which you submitted for review.`],
    `${options.publicUrl}${paths.article(options.articleId)}`,
  );
}
