import type { ReactNode } from 'react';
import { commentTexts as texts, type Comment, type CommentPage } from '../../shared/comments.ts';
import { paths } from '../../shared/routes.ts';
import { parseUploadedImageUrl, variantFileName, variantWidths } from '../../shared/imageUrls.ts';
import { formatArticleDate } from '../components/formatArticleDate.ts';

/** A comment's body: the article body's look, a step smaller (styles.css; the elements commentMarkdown.ts makes). */
export const commentBodyClass = 'comment-body';

// The article's column (ArticleBody.tsx's ARTICLE_COLUMN): not imported, so that the article
// page's chunk and this one share nothing new (a shared module would land in the home page's).
// Its 60ch are measured in the serif, as the article's are (a ch is the font's zero: 60 of the
// sans were wider than the text above), and what it holds is set in the sans (`*:font-sans`).
const column = 'mx-auto w-full max-w-[60ch] font-serif text-[1.125rem] *:font-sans sm:text-[1.1875rem]';

export interface CommentsViewProps {
  page: CommentPage;
  /** The signed-in reader: their pending comment says it waits. */
  viewerUid?: string | null;
  /** Above the threads: the form, or the line saying how to comment. */
  form?: ReactNode;
  /** Under each comment: what the reader may do with it. */
  tools?: (comment: Comment) => ReactNode;
  /** Under a thread: the reply form when open. */
  threadEnd?: (comment: Comment) => ReactNode;
  /** Under the threads: More comments. */
  more?: ReactNode;
  /** Replaces a comment's body while it is edited. */
  editing?: (comment: Comment) => ReactNode;
}

/**
 * The comments under an article (DESIGN.md §9.2): the count, the threads oldest first with their
 * replies, each with the writer's picture and name (linking to their author page), the date and
 * "edited". The server renders it into the article page without anything to act with (readable
 * without JavaScript); the comments' code renders it again with the form and the buttons.
 */
export function CommentsView({ page, viewerUid = null, form, tools, threadEnd, more, editing }: CommentsViewProps) {
  return (
    <section
      aria-labelledby="comments-heading"
      className={`${column} mt-14 border-t border-slate-200 pt-8 dark:border-slate-800`}
    >
      <h2 id="comments-heading" className="text-2xl font-bold">
        {page.count > 0 ? texts.count(page.count) : texts.heading}
      </h2>
      {page.fediverse && page.fediverse.likes + page.fediverse.reposts > 0 && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="fediverse-reactions">
          {plural(page.fediverse.likes, 'like')} · {plural(page.fediverse.reposts, 'repost')} from the fediverse
        </p>
      )}
      {form}
      {page.comments.length === 0 ? (
        <p className="mt-6 text-slate-600 dark:text-slate-400">{texts.none}</p>
      ) : (
        <ol className="mt-6 flex flex-col gap-8">
          {page.comments.map((comment) => (
            <li key={comment.id}>
              <CommentItem comment={comment} viewerUid={viewerUid} tools={tools} editing={editing} />
              {(comment.replies.length > 0 || threadEnd) && (
                <ol className="mt-4 ms-4 flex flex-col gap-6 border-s-2 border-slate-200 ps-4 empty:hidden sm:ms-12 dark:border-slate-800">
                  {comment.replies.map((reply) => (
                    <li key={reply.id}>
                      <CommentItem comment={reply} viewerUid={viewerUid} tools={tools} editing={editing} />
                    </li>
                  ))}
                  {threadEnd?.(comment)}
                </ol>
              )}
            </li>
          ))}
        </ol>
      )}
      {more}
    </section>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function CommentItem({
  comment,
  viewerUid,
  tools,
  editing,
}: {
  comment: Comment;
  viewerUid: string | null;
  tools?: (comment: Comment) => ReactNode;
  editing?: (comment: Comment) => ReactNode;
}) {
  const { author } = comment;
  if (comment.status === 'deleted' || author === null) {
    return (
      <article id={`comment-${comment.id}`} className="text-slate-600 italic dark:text-slate-400">
        <p>{texts.deleted}</p>
      </article>
    );
  }
  const name = author.displayName ?? 'Someone';
  const href = author.uid !== null ? paths.author(author.slug ?? author.uid) : author.url;
  const edited = editing?.(comment);
  // Lean markup (CSS classes from styles.css, plain links): a page may carry dozens of comments
  // and the article page's HTML has a budget (DESIGN.md §9.2).
  return (
    <article id={`comment-${comment.id}`}>
      <header className="comment-meta">
        <CommentAvatar id={author.uid ?? name} name={name} photoUrl={author.photoUrl} />
        {href === undefined ? (
          <span className="comment-name">{name}</span>
        ) : (
          <a
            href={href}
            {...(author.uid === null ? { rel: 'nofollow ugc noopener' } : {})}
            dir="auto"
            className="comment-name"
          >
            {name}
          </a>
        )}
        <time dateTime={comment.createdAt}>{formatArticleDate(comment.createdAt)}</time>
        {comment.editedAt && <span className="comment-edited">{texts.edited}</span>}
        {comment.status === 'pending' && viewerUid !== null && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">
            {texts.waitingForApproval}
          </span>
        )}
        {comment.status === 'hidden' && (
          <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-900 dark:bg-red-900/40 dark:text-red-200">
            {texts.hidden}
            {comment.hiddenReason ? `: ${comment.hiddenReason}` : ''}
          </span>
        )}
      </header>
      {edited ?? <div dir="auto" className={commentBodyClass} dangerouslySetInnerHTML={{ __html: comment.bodyHtml }} />}
      {!edited && tools?.(comment)}
    </article>
  );
}

// AuthorAvatar's hues, each dark enough for white text.
const HUES = ['bg-blue-700', 'bg-teal-700', 'bg-violet-700', 'bg-rose-700', 'bg-amber-700', 'bg-emerald-700'];

/** The writer's picture, or their initial in a circle (AuthorAvatar's, with a class instead of a dozen). */
function CommentAvatar({ id, name, photoUrl }: { id: string; name: string; photoUrl: string | null }) {
  if (photoUrl && /^https?:\/\//i.test(photoUrl)) {
    const uploaded = parseUploadedImageUrl(photoUrl);
    const src = uploaded ? `${uploaded.base}/${variantFileName(variantWidths(uploaded.width)[0]!)}` : photoUrl;
    return <img src={src} alt="" loading="lazy" className="comment-avatar" />;
  }
  let hash = 0;
  for (const character of id) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return (
    <span aria-hidden="true" className={`comment-avatar ${HUES[hash % HUES.length]}`}>
      {[...name.trim()][0]?.toLocaleUpperCase() ?? ''}
    </span>
  );
}
