import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { messages } from '../../shared/messages.ts';
import { editorTexts } from '../../shared/editorTexts.ts';
import { paths } from '../../shared/routes.ts';
import { can } from '../../shared/roles.ts';
import { useRole } from '../auth/useRole.ts';
import { useAuth } from '../auth/useAuth.ts';
import { mayModerate } from '../moderation/mayModerate.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { ArticleForm } from './ArticleForm.tsx';
import { articlesApi } from '../api/articlesApi.ts';
import { LoadFailure } from '../components/LoadFailure.tsx';
import { settle, useSettled } from './settled.ts';

/** `/article-update` (add) and `/article-update/:id` (edit, author only). */
export function ArticleEditorPage() {
  const { id } = useParams();
  return id ? <EditArticle key={id} id={id} /> : <AddArticle />;
}

/** A writing layout across the main column, not a form in a card. */
function EditorSection({ heading, children }: { heading: string; children: ReactNode }) {
  useDocumentTitle(heading);
  return (
    <section aria-labelledby="editor-heading" className="w-full">
      <h1 id="editor-heading" className="mb-6 text-lg font-semibold text-slate-600 dark:text-slate-400">
        {heading}
      </h1>
      {children}
    </section>
  );
}

function AddArticle() {
  const role = useRole();
  // A role that may not write (a reader) is not offered the editor, as others are not offered /admin.
  if (role === null || (role && !can(role, 'article:write'))) return <NotFoundPage />;
  return (
    <EditorSection heading={editorTexts.addArticleHeading}>
      <ArticleForm role={role ?? null} />
    </EditorSection>
  );
}

function EditArticle({ id }: { id: string }) {
  const { state: auth, getIdToken } = useAuth();
  const role = useRole();
  // With the token: a draft or a hidden article is its author's and editors' only.
  const [call, setCall] = useState(() => settle(articlesApi.get(id, getIdToken)));
  const result = useSettled(call);

  if (result?.ok === false && result.error.status === 404) return <NotFoundPage />;

  let body: ReactNode;
  if (result === undefined || (result.ok && role === undefined)) {
    body = <div aria-hidden="true" className="h-96 animate-pulse rounded-lg bg-slate-200 dark:bg-slate-800" />;
  } else if (!result.ok) {
    body = (
      <LoadFailure
        message={messages.articleLoadFailed}
        onRetry={() => setCall(settle(articlesApi.get(id, getIdToken)))}
      />
    );
  } else if (auth.status === 'signedIn' && result.value.authorId !== auth.user.uid && !mayModerate(role)) {
    // The server refuses too; this just says so before anyone types. (Editors edit any article.)
    body = (
      <div role="alert" className="space-y-4">
        <p>{editorTexts.notYourArticle}</p>
        <p>
          <Link
            to={paths.article(result.value.id)}
            className="text-blue-700 underline hover:no-underline dark:text-blue-400"
          >
            {result.value.title}
          </Link>
        </p>
      </div>
    );
  } else {
    body = <ArticleForm article={result.value} role={role ?? null} />;
  }
  return <EditorSection heading={editorTexts.editArticleHeading}>{body}</EditorSection>;
}
