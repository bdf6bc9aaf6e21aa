import { useCallback, useEffect, useState } from 'react';

// Forgotten on Log Out with the article drafts (articles/articleDraftStorage.ts matches it).
const PREFIX = 'inkwell:comment-draft:';

function read(key: string): string {
  try {
    return sessionStorage.getItem(PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

/**
 * What a person types in a comment box, kept in sessionStorage as they type (as the article
 * editor keeps its draft): a failed send, a reload, Back and Forward or a link followed by
 * mistake leave it where it was. `clear` forgets it once the comment is sent. While it holds
 * text, closing or reloading the tab asks first.
 */
export function useCommentDraft(key: string, initial = '') {
  const [text, setText] = useState(() => read(key) || initial);
  useEffect(() => {
    try {
      if (text.trim() === '' || text === initial) sessionStorage.removeItem(PREFIX + key);
      else sessionStorage.setItem(PREFIX + key, text);
    } catch {
      // Storage full or refused: the text is still in the box.
    }
  }, [key, text, initial]);
  const unsaved = text.trim() !== '' && text !== initial;
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);
  const clear = useCallback(() => {
    try {
      sessionStorage.removeItem(PREFIX + key);
    } catch {
      // nothing kept
    }
    setText('');
  }, [key]);
  return { text, setText, clear };
}
