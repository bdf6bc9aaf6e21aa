import { useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link, useNavigate } from 'react-router';
import { DESCRIPTION_MAX_LENGTH, parseArticleInput, TITLE_MAX_LENGTH } from '../../shared/articleSchema.ts';
import { messages } from '../../shared/messages.ts';
import { editorTexts } from '../../shared/editorTexts.ts';
import { can, type Role } from '../../shared/roles.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { ArticleFormField } from './ArticleFormField.tsx';
import { CoverImageField } from './CoverImageField.tsx';
import { DescriptionEditor } from './DescriptionEditor.tsx';
import { limitNote } from './LimitNote.tsx';
import type { Article, ArticleField, ArticleInput, WritableArticleStatus } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import { ArticlesApiError } from '../api/articlesApiError.ts';
import { LeaveEditorDialog } from './LeaveEditorDialog.tsx';
import { RestoredDraftNotice } from './RestoredDraftNotice.tsx';
import { TagsField } from './TagsField.tsx';
import { NewsletterChoice } from './NewsletterChoice.tsx';
import { moderationTexts } from '../moderation/moderationTexts.ts';
import { useArticleDraft } from './useArticleDraft.ts';
import { useLeaveGuard } from './useLeaveGuard.ts';

const fieldOrder: ArticleField[] = ['image', 'title', 'description', 'tags'];
const fieldId = (field: ArticleField) => `article-${field}`;
type FieldErrors = Partial<Record<ArticleField, string>>;

function isArticleField(field: string): field is ArticleField {
  return (fieldOrder as string[]).includes(field);
}

interface ArticleFormProps {
  /** The article being edited; absent when adding one. */
  article?: Article;
  /** The signed-in person's role (undefined while it is read): contributors submit for review instead of publishing. */
  role: Role | null | undefined;
}

/** The status the main button asks for; undefined keeps the article's (a hidden one stays hidden). */
function mainStatus(
  role: Role | null | undefined,
  article?: Pick<Article, 'status'>,
): WritableArticleStatus | undefined {
  if (role && !can(role, 'article:publish')) return 'submitted';
  return article?.status === 'hidden' ? undefined : 'published';
}

/**
 * The add / edit form as a writing layout: the cover (address or upload), a large title, and
 * the Markdown body with its toolbar and preview. Checks with the server's own rules first,
 * then saves and opens the article.
 */
export function ArticleForm({ article, role }: ArticleFormProps) {
  const navigate = useNavigate();
  const { state: auth, getIdToken } = useAuth();
  const initial: ArticleInput = article
    ? { image: article.image, title: article.title, description: article.description, tags: article.tags }
    : { image: '', title: '', description: '', tags: [] };
  const draft = useArticleDraft(article?.id, initial, auth.status === 'signedIn' ? auth.user.uid : null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // "Email to N subscribers": on unless the writer says not to (the first publication only).
  const [mailIt, setMailIt] = useState(true);
  const firstPublication = article === undefined || article.status === 'draft' || article.status === 'submitted';
  const alertRef = useRef<HTMLParagraphElement>(null);
  // Unsaved typing is never dropped without asking: a save in flight is not "leaving".
  const leave = useLeaveGuard(draft.changed && !busy);

  const signedOut = auth.status !== 'signedIn';
  const shownError = formError ?? (signedOut ? editorTexts.mustBeLoggedIn : null);

  // Render the messages first, then move focus, so the focused field already names its error.
  function showProblems(errors: FieldErrors, message: string | null) {
    flushSync(() => {
      setFieldErrors(errors);
      setFormError(message);
    });
    const first = fieldOrder.find((field) => errors[field]);
    if (first) document.getElementById(fieldId(first))?.focus();
    else if (message) alertRef.current?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || role === undefined) return;
    // Which button: Save draft, or the main one (Add Article, Save Article or Submit for review).
    const asDraft = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'draft';
    const status: WritableArticleStatus | undefined = asDraft ? 'draft' : mainStatus(role, article);
    const checked = parseArticleInput(draft.values);
    if (!checked.success) {
      const errors: FieldErrors = {};
      for (const { field, message } of checked.errors) if (isArticleField(field)) errors[field] ??= message;
      showProblems(errors, null);
      return;
    }
    if (signedOut) {
      showProblems({}, editorTexts.mustBeLoggedIn);
      return;
    }
    setBusy(true);
    try {
      const chosen = status === undefined ? checked.data : { ...checked.data, status };
      const body = status === 'published' && firstPublication && !mailIt ? { ...chosen, newsletter: false } : chosen;
      const saved = article
        ? await articlesApi.update(article.id, body, getIdToken)
        : await articlesApi.create(body, getIdToken);
      draft.discard();
      // A draft or a submission opens on its page with a note saying so (and the Draft banner).
      navigate(
        paths.article(saved.id),
        status === 'draft' || status === 'submitted' ? { state: { saved: status } } : {},
      );
    } catch (error) {
      setBusy(false);
      showProblems(...problemsFrom(error));
    }
  }

  const errorFor = (field: ArticleField) => fieldErrors[field];
  const update = (field: 'image' | 'title' | 'description') => (value: string) => {
    draft.update(field, value);
    if (fieldErrors[field]) setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <form onSubmit={onSubmit} className="space-y-6" aria-busy={busy}>
      {shownError && (
        <p
          ref={alertRef}
          role="alert"
          tabIndex={-1}
          className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {shownError}
        </p>
      )}
      {draft.restored && <RestoredDraftNotice onDiscard={draft.discardRestored} />}
      <CoverImageField
        id={fieldId('image')}
        value={draft.values.image}
        error={errorFor('image')}
        onChange={update('image')}
      />
      <ArticleFormField
        id={fieldId('title')}
        label={editorTexts.titleLabel}
        value={draft.values.title}
        error={errorFor('title')}
        onChange={update('title')}
        large
        note={limitNote(draft.values.title.trim(), TITLE_MAX_LENGTH)}
      />
      <DescriptionEditor
        id={fieldId('description')}
        label={editorTexts.descriptionLabel}
        value={draft.values.description}
        error={errorFor('description')}
        note={limitNote(draft.values.description.trim(), DESCRIPTION_MAX_LENGTH)}
        onChange={update('description')}
      />
      <TagsField
        id={fieldId('tags')}
        tags={draft.values.tags ?? []}
        error={errorFor('tags')}
        onChange={(tags) => {
          draft.update('tags', tags);
          if (fieldErrors.tags) setFieldErrors((current) => ({ ...current, tags: undefined }));
        }}
      />
      {firstPublication && mainStatus(role, article) === 'published' && !signedOut && (
        <NewsletterChoice checked={mailIt} onChange={setMailIt} token={getIdToken} />
      )}
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          name="intent"
          value="main"
          disabled={busy || role === undefined}
          aria-busy={busy}
          className="inline-flex items-center gap-2 rounded-md bg-blue-700 px-5 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {busy && (
            <span
              aria-hidden="true"
              className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
            />
          )}
          {mainStatus(role, article) === 'submitted'
            ? moderationTexts.submitForReview
            : article
              ? editorTexts.saveArticleButton
              : editorTexts.addArticleButton}
        </button>
        {/* A hidden article stays hidden until an editor restores it: no way back through a draft. */}
        {article?.status !== 'hidden' && (
          <button
            type="submit"
            name="intent"
            value="draft"
            disabled={busy || role === undefined}
            className="rounded-md border border-slate-300 px-5 py-2 font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            {moderationTexts.saveDraft}
          </button>
        )}
        {/* With changes, the leave guard asks first; the draft goes only on "Discard changes" (or
            the restored-draft notice's Discard). Cancel itself forgets a draft only when the form
            holds nothing to lose: while a save is in flight the guard is off, and a click then
            must not drop the typing either (issue 26.8). */}
        <Link
          to={paths.home}
          onClick={() => {
            if (!draft.changed) draft.discard();
          }}
          className="text-blue-700 underline hover:no-underline dark:text-blue-400"
        >
          {messages.cancel}
        </Link>
      </div>
      <LeaveEditorDialog
        open={leave.held !== null}
        onStay={leave.stay}
        onLeave={leave.proceed}
        onDiscard={() => {
          draft.discard();
          leave.proceed();
        }}
      />
    </form>
  );
}

/** Turns a failed save into messages: field errors beside their fields, anything else above the form. */
function problemsFrom(error: unknown): [FieldErrors, string | null] {
  if (!(error instanceof ArticlesApiError)) return [{}, editorTexts.articleSaveFailed];
  // No answer at all (offline, or the call timed out): say so, not that the article was refused.
  if (error.status === 0) return [{}, editorTexts.articleSaveUnreachable];
  if (error.status === 401) return [{}, editorTexts.mustBeLoggedIn];
  // A refusal in the server's own words: they say why (a role that may not write or publish,
  // someone else's article) and where to go (REQUIRE_TWO_STEP: the profile).
  if (error.status === 403) return [{}, error.message || editorTexts.notYourArticle];
  const errors: FieldErrors = {};
  let unplaced = false;
  for (const { field, message } of error.fieldErrors) {
    if (isArticleField(field)) errors[field] ??= message;
    else unplaced = true;
  }
  const placed = Object.keys(errors).length > 0;
  return [errors, placed && !unplaced ? null : editorTexts.articleSaveFailed];
}
