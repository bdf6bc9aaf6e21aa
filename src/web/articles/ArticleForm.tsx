import { useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link, useNavigate } from 'react-router';
import {
  DESCRIPTION_MAX_LENGTH,
  missingForPublication,
  parseArticleInput,
  TITLE_MAX_LENGTH,
} from '../../shared/articleSchema.ts';
import { messages } from '../../shared/messages.ts';
import { deskTexts, editorTexts } from '../../shared/editorTexts.ts';
import { can, type Role } from '../../shared/roles.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { ArticleFormField } from './ArticleFormField.tsx';
import { CoverImageField } from './CoverImageField.tsx';
import { DescriptionEditor } from './DescriptionEditor.tsx';
import { limitNote } from './LimitNote.tsx';
import type { ArticleDetail, ArticleField, ArticleInput, WritableArticleStatus } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import { ArticlesApiError } from '../api/articlesApiError.ts';
import { LeaveEditorDialog } from './LeaveEditorDialog.tsx';
import { RestoredDraftNotice } from './RestoredDraftNotice.tsx';
import { TagsField } from './TagsField.tsx';
import { NewsletterChoice } from './NewsletterChoice.tsx';
import { moderationTexts } from '../moderation/moderationTexts.ts';
import { useArticleDraft } from './useArticleDraft.ts';
import { useLeaveGuard } from './useLeaveGuard.ts';
import { ExcerptField } from './ExcerptField.tsx';
import { isoFromLocalInput, localInputValue, ScheduleChoice } from './ScheduleChoice.tsx';
import { useAutosave } from './useAutosave.ts';
import { AutosaveStatus } from './AutosaveStatus.tsx';

const fieldOrder: ArticleField[] = ['image', 'title', 'description', 'excerpt', 'tags', 'publishAt'];
const fieldId = (field: ArticleField) => `article-${field}`;
type FieldErrors = Partial<Record<ArticleField, string>>;

function isArticleField(field: string): field is ArticleField {
  return (fieldOrder as string[]).includes(field);
}

interface ArticleFormProps {
  /** The article being edited; absent when adding one. */
  article?: ArticleDetail;
  /** The signed-in person's role (undefined while it is read): contributors submit for review instead of publishing. */
  role: Role | null | undefined;
}

/** The status the main button asks for; undefined keeps the article's (a hidden one stays hidden). */
function mainStatus(
  role: Role | null | undefined,
  article?: Pick<ArticleDetail, 'status'>,
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
    ? {
        image: article.image,
        title: article.title,
        description: article.description,
        tags: article.tags,
        excerpt: article.customExcerpt ?? '',
      }
    : { image: '', title: '', description: '', tags: [], excerpt: '' };
  const draft = useArticleDraft(article?.id, initial, auth.status === 'signedIn' ? auth.user.uid : null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // "Email to N subscribers": on unless the writer says not to (the first publication only).
  const [mailIt, setMailIt] = useState(true);
  const firstPublication = article === undefined || article.status === 'draft' || article.status === 'submitted';
  // "Schedule": for those who may publish, while the article is not out yet.
  const mayPublish = mainStatus(role, article) === 'published';
  const maySchedule = mayPublish && (article === undefined || firstPublication || article.status === 'scheduled');
  const [scheduleOn, setScheduleOn] = useState(article?.status === 'scheduled');
  const [scheduleAt, setScheduleAt] = useState(article?.publishAt ? localInputValue(article.publishAt) : '');
  const alertRef = useRef<HTMLParagraphElement>(null);
  const signedOut = auth.status !== 'signedIn';
  // Drafts go to the server as they are written; a published (or scheduled) article only on Save.
  const timedSaves = !signedOut && !!role && article?.status === 'draft' && !scheduleOn;
  const autosave = useAutosave({
    enabled: timedSaves,
    articleId: article?.id,
    values: draft.values,
    token: getIdToken,
  });
  // "Leave, keep draft" keeps a new article or a draft on the server (the tab's copy if that fails).
  const keepsOnServer = !signedOut && !!role && (article === undefined || article.status === 'draft');
  // Unsaved typing is never dropped without asking: a save in flight is not "leaving".
  const leave = useLeaveGuard((timedSaves ? !autosave.upToDate : draft.changed) && !busy);

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
    const scheduled = !asDraft && maySchedule && scheduleOn;
    const status: WritableArticleStatus | undefined = asDraft
      ? 'draft'
      : scheduled
        ? 'scheduled'
        : mainStatus(role, article);
    const publishAt = scheduled ? isoFromLocalInput(scheduleAt) : undefined;
    const checked = parseArticleInput(draft.values);
    // A draft needs only its title; anything else the fields the spec requires (DESIGN.md §9.6).
    const problems = checked.success ? (status === 'draft' ? [] : missingForPublication(checked.data)) : checked.errors;
    if (scheduled && publishAt === undefined)
      problems.push({ field: 'publishAt', message: deskTexts.publishAtRequired });
    if (!checked.success || problems.length > 0) {
      const errors: FieldErrors = {};
      for (const { field, message } of problems) if (isArticleField(field)) errors[field] ??= message;
      showProblems(errors, null);
      return;
    }
    if (signedOut) {
      showProblems({}, editorTexts.mustBeLoggedIn);
      return;
    }
    setBusy(true);
    try {
      // An autosave in flight ends first: a new article it created is the one saved now.
      const id = (await autosave.stop()) ?? article?.id;
      const { publishAt: _unused, ...fields } = checked.data;
      const chosen = status === undefined ? fields : { ...fields, status, ...(publishAt ? { publishAt } : {}) };
      const mailed = (status === 'published' || status === 'scheduled') && firstPublication;
      const body = mailed && !mailIt ? { ...chosen, newsletter: false } : chosen;
      const saved = id ? await articlesApi.update(id, body, getIdToken) : await articlesApi.create(body, getIdToken);
      draft.discard();
      // A draft or a submission opens on its page with a note saying so (and the Draft banner).
      navigate(
        paths.article(saved.id),
        status === 'draft' || status === 'submitted' ? { state: { saved: status } } : {},
      );
    } catch (error) {
      setBusy(false);
      autosave.resume();
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
      <ExcerptField
        id={fieldId('excerpt')}
        value={draft.values.excerpt ?? ''}
        error={errorFor('excerpt')}
        onChange={(value) => {
          draft.update('excerpt', value);
          if (fieldErrors.excerpt) setFieldErrors((current) => ({ ...current, excerpt: undefined }));
        }}
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
      {mayPublish && firstPublication && !signedOut && (
        <NewsletterChoice checked={mailIt} onChange={setMailIt} token={getIdToken} />
      )}
      {maySchedule && !signedOut && (
        <ScheduleChoice
          id={fieldId('publishAt')}
          on={scheduleOn}
          value={scheduleAt}
          error={errorFor('publishAt')}
          onToggle={setScheduleOn}
          onChange={(value) => {
            setScheduleAt(value);
            if (fieldErrors.publishAt) setFieldErrors((current) => ({ ...current, publishAt: undefined }));
          }}
        />
      )}
      {/* Within reach however long the article: the bar stays at the bottom of the window. */}
      <div className="editor-actions">
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
            : maySchedule && scheduleOn
              ? deskTexts.scheduleButton
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
            // A draft needs only its title: the browser does not ask for the cover or the body.
            formNoValidate
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
        {timedSaves && <AutosaveStatus state={autosave.state} />}
      </div>
      <LeaveEditorDialog
        open={leave.held !== null}
        onStay={leave.stay}
        onLeave={() => {
          // "Leave, keep draft": a draft is kept on the server (and in this tab, should that fail).
          if (!keepsOnServer) return leave.proceed();
          void autosave
            .saveNow()
            .then((saved) => {
              // On the server now: the tab's copy would only make a second article of it.
              if (saved) draft.discard();
            })
            .finally(leave.proceed);
        }}
        onDiscard={() => {
          void autosave.stop();
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
