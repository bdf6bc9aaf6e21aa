import { useDeferredValue, useEffect, useState } from 'react';
import type { RenderedMarkdown, RenderOptions } from '../../shared/markdown/renderMarkdown.ts';
import { ArticleBody } from './ArticleBody.tsx';
import { editorMessages } from './editorMessages.ts';

type Render = (source: string, options?: RenderOptions) => RenderedMarkdown;

/**
 * What the body will look like: the server's own renderer (src/shared/markdown), loaded on
 * demand so it is part of the editor's code only (decision 0040).
 */
export function MarkdownPreview({ source }: { source: string }) {
  const [render, setRender] = useState<Render | 'failed' | null>(null);
  // Typing stays responsive on long texts: the preview follows when there is time.
  const deferred = useDeferredValue(source);

  useEffect(() => {
    let live = true;
    import('../../shared/markdown/renderMarkdown.ts').then(
      (module) => live && setRender(() => module.renderMarkdown),
      () => live && setRender('failed'),
    );
    return () => {
      live = false;
    };
  }, []);

  if (render === 'failed') return <p className="text-slate-600 dark:text-slate-400">{editorMessages.previewFailed}</p>;
  if (!render) return <p className="text-slate-600 dark:text-slate-400">{editorMessages.previewLoading}</p>;
  if (deferred.trim() === '')
    return <p className="text-slate-600 dark:text-slate-400">{editorMessages.previewEmpty}</p>;
  // This page's origin is the server's: its uploads preview with their srcset, as readers get them.
  return <ArticleBody html={render(deferred, { ownImageOrigin: location.origin }).html} />;
}
