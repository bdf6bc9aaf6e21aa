import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { TagList } from '../../shared/searchSchema.ts';
import { TAG_NAME_MAX_LENGTH, TAGS_MAX, tagSlug } from '../../shared/tags.ts';
import { listTags } from '../api/searchApi.ts';
import { fieldInputClass } from './ArticleFormField.tsx';

/** The editor's tags: type one and press Enter (or a comma) to add it; suggestions are the blog's most used tags. */
export function TagsField({
  id,
  tags,
  error,
  onChange,
}: {
  id: string;
  tags: readonly string[];
  error: string | undefined;
  onChange: (tags: string[]) => void;
}) {
  const [text, setText] = useState('');
  const suggestions = useTagSuggestions();
  const listId = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const full = tags.length >= TAGS_MAX;

  function add(value: string) {
    const name = value.trim();
    if (name === '') return;
    // The same tag twice (by slug) is one tag.
    if (!tags.some((tag) => tagSlug(tag) === tagSlug(name))) onChange([...tags, name]);
    setText('');
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add(text);
    } else if (event.key === 'Backspace' && text === '' && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  }

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        Tags
      </label>
      {tags.length > 0 && (
        <ul aria-label="Tags of this article" className="mt-2 flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li
              key={tag}
              className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 pr-1 pl-3 text-sm dark:bg-slate-800"
            >
              <span dir="auto">{tag}</span>
              <button
                type="button"
                onClick={() => onChange(tags.filter((other) => other !== tag))}
                className="inline-flex h-6 w-6 items-center justify-center rounded-full hover:bg-slate-200 dark:hover:bg-slate-700"
                aria-label={`Remove tag ${tag}`}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        name={id}
        value={text}
        dir="auto"
        list={listId}
        disabled={full}
        maxLength={TAG_NAME_MAX_LENGTH}
        placeholder={full ? `${TAGS_MAX} tags at most` : 'Add a tag and press Enter'}
        aria-invalid={error ? true : undefined}
        aria-describedby={[error ? errorId : '', hintId].join(' ').trim()}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => add(text)}
        className={fieldInputClass}
      />
      <datalist id={listId}>
        {suggestions
          .filter((suggestion) => !tags.some((tag) => tagSlug(tag) === suggestion.slug))
          .map((suggestion) => (
            <option key={suggestion.slug} value={suggestion.name} />
          ))}
      </datalist>
      <p id={hintId} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Up to {TAGS_MAX} tags of at most {TAG_NAME_MAX_LENGTH} characters.
      </p>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** GET /api/tags, once per editor visit; no suggestions when it fails (the field works without). */
function useTagSuggestions(): TagList['tags'] {
  const [tags, setTags] = useState<TagList['tags']>([]);
  useEffect(() => {
    let current = true;
    listTags()
      .then((list) => current && setTags(list.tags))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return tags;
}
