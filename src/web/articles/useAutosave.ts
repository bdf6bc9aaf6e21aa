import { useCallback, useEffect, useRef, useState } from 'react';
import { parseArticleInput } from '../../shared/articleSchema.ts';
import { paths } from '../../shared/routes.ts';
import type { ArticleInput } from '../api/articleTypes.ts';
import { articlesApi } from '../api/articlesApi.ts';
import type { TokenSource } from '../api/callApi.ts';

/** How long after the last keystroke a draft goes to the server. */
export const AUTOSAVE_DELAY_MS = 2000;

export type AutosaveState = 'idle' | 'saving' | 'saved' | 'failed';

const snapshot = (values: ArticleInput) => JSON.stringify(values);

/**
 * Saves a draft to the server as it is written (DESIGN.md §9.6): with `enabled` (an article
 * whose status is `draft`), a few seconds after typing stops and at once on leaving the page; a
 * published article changes only when its author saves it. `saveNow` is also the editor's
 * "Leave, keep draft" for a new article: it becomes a draft on the server then (a new article
 * is not saved on a timer, so a reload or a second tab never makes a second one), and the
 * address becomes its editor's. A failed save says so; the tab's own copy (useArticleDraft)
 * stays then. `id` is the article's, once it has one.
 */
export function useAutosave(options: {
  enabled: boolean;
  articleId: string | undefined;
  values: ArticleInput;
  token: TokenSource;
}) {
  const { enabled, values, token } = options;
  const [state, setState] = useState<AutosaveState>('idle');
  const [id, setId] = useState(options.articleId);
  const idRef = useRef(options.articleId);
  // What the server holds, as far as this form knows: the article as it opened.
  const savedRef = useRef(snapshot(values));
  const latest = useRef(values);
  latest.current = values;
  const tokenRef = useRef(token);
  tokenRef.current = token;
  const inFlight = useRef<Promise<void> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // Set once the form saves for itself (publish, submit, save draft) or drops the text: a late
  // autosave must never turn what was just published back into a draft.
  const stopped = useRef(false);

  /** Saves now unless nothing changed; true when the server then holds what is typed. */
  const saveNow = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    if (inFlight.current) await inFlight.current;
    if (stopped.current) return false;
    const values = latest.current;
    const text = snapshot(values);
    if (text === savedRef.current) return true;
    // A draft needs its title; without one (or with a field the server would refuse) the tab keeps it.
    const checked = parseArticleInput({ ...values, status: 'draft' });
    if (!checked.success) return false;
    setState('saving');
    const run = (async () => {
      try {
        const { publishAt: _none, ...fields } = checked.data;
        const body = { ...fields, excerpt: fields.excerpt ?? '' };
        if (idRef.current === undefined) {
          const created = await articlesApi.create(body, tokenRef.current);
          idRef.current = created.id;
          setId(created.id);
          // The address names the draft now: a reload (or a link) opens it from the server.
          window.history.replaceState(window.history.state, '', paths.editArticle(created.id));
        } else {
          await articlesApi.update(idRef.current, body, tokenRef.current);
        }
        savedRef.current = text;
        setState(snapshot(latest.current) === text ? 'saved' : 'idle');
      } catch {
        setState('failed');
      }
    })();
    inFlight.current = run;
    await run;
    inFlight.current = null;
    return savedRef.current === text;
  }, []);

  useEffect(() => {
    if (!enabled || snapshot(values) === savedRef.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [enabled, values, saveNow]);

  // Leaving the page (a tab closed, hidden on a phone): what is typed goes now.
  useEffect(() => {
    if (!enabled) return;
    const onHide = () => {
      if (document.visibilityState === 'hidden') void saveNow();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      void saveNow();
    };
  }, [enabled, saveNow]);

  /** No more autosaves; resolves once one in flight has ended (its id is then known). */
  const stop = useCallback(async () => {
    stopped.current = true;
    clearTimeout(timer.current);
    if (inFlight.current) await inFlight.current;
    return idRef.current;
  }, []);

  /** Autosaves again (the form's own save failed: the text is still being written). */
  const resume = useCallback(() => {
    stopped.current = false;
  }, []);

  const upToDate = snapshot(values) === savedRef.current;
  // "Saved" stands only while nothing was typed since.
  return { state: state === 'saved' && !upToDate ? ('idle' as const) : state, id, saveNow, stop, resume, upToDate };
}
