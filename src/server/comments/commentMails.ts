/**
 * The notification mails of comments (DESIGN.md §9.2): the article's author hears of a new
 * comment, a commenter of a reply. Each belongs to a list the recipient can leave with one click
 * (the unsubscribe feature) or from the profile's switches.
 */
export const NOTIFICATION_LISTS = {
  onArticle: 'comment-on-article',
  reply: 'comment-reply',
} as const;

/** How the unsubscribe page names each list. */
export const NOTIFICATION_LIST_NAMES: Record<string, string> = {
  [NOTIFICATION_LISTS.onArticle]: 'new comments on your articles',
  [NOTIFICATION_LISTS.reply]: 'replies to your comments',
};

const EXCERPT_MAX = 500;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function commentMail(options: {
  kind: 'comment' | 'reply';
  site: { title: string };
  articleTitle: string;
  who: string;
  /** The comment's Markdown: quoted as text, never as markup. */
  body: string;
  link: string;
  unsubscribeUrl: string;
}) {
  const { site, articleTitle, who, link, unsubscribeUrl } = options;
  const chars = [...options.body];
  const excerpt = chars.length > EXCERPT_MAX ? `${chars.slice(0, EXCERPT_MAX - 1).join('')}…` : options.body;
  const subject =
    options.kind === 'comment'
      ? `New comment on "${articleTitle}" on ${site.title}`
      : `${who} replied to your comment on ${site.title}`;
  const lead =
    options.kind === 'comment'
      ? `${who} commented on your article "${articleTitle}":`
      : `${who} replied to your comment on "${articleTitle}":`;
  const stop =
    options.kind === 'comment'
      ? 'Stop mail about new comments on your articles'
      : 'Stop mail about replies to your comments';
  const text = [
    'Hello,',
    '',
    lead,
    '',
    ...excerpt.split('\n').map((line) => `> ${line}`),
    '',
    `Read it on ${site.title}: ${link}`,
    '',
    '--',
    `${stop}: ${unsubscribeUrl}`,
  ].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(lead)}</p>`,
    `<blockquote>${escapeHtml(excerpt).replace(/\n/g, '<br>')}</blockquote>`,
    `<p><a href="${escapeHtml(link)}">Read it on ${escapeHtml(site.title)}</a></p>`,
    `<hr><p><a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(stop)}</a></p>`,
  ].join('\n');
  return { subject, text, html };
}
