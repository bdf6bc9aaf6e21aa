import { useEffect, useId, useState } from 'react';
import type { CommentNotificationSettings } from '../../shared/comments.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { useAuth } from '../auth/useAuth.ts';
import { commentsApi } from '../api/commentsApi.ts';

const switches: { key: keyof CommentNotificationSettings; label: string }[] = [
  { key: 'commentsOnMyArticles', label: 'Mail me when someone comments on my articles' },
  { key: 'repliesToMyComments', label: 'Mail me when someone replies to my comments' },
];

/**
 * The profile's two switches for comment mail (DESIGN.md §9.2). A mail's one-click unsubscribe
 * link turns the same switch off. Not shown when comments are off (the API answers 404).
 */
export function CommentNotificationsSection() {
  const { getIdToken } = useAuth();
  const headingId = useId();
  const [settings, setSettings] = useState<CommentNotificationSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    commentsApi.settings(getIdToken).then(
      (loaded) => current && setSettings(loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [getIdToken]);
  if (settings === null) return null;

  async function change(key: keyof CommentNotificationSettings, value: boolean) {
    setError(null);
    setSettings((shown) => shown && { ...shown, [key]: value });
    try {
      setSettings(await commentsApi.changeSettings(getIdToken, { [key]: value }));
    } catch {
      setSettings((shown) => shown && { ...shown, [key]: !value });
      setError('The setting could not be saved. Please try again.');
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 id={headingId} className="text-base font-semibold">
        Comment mail
      </h3>
      {error && <FormAlert message={error} tone="error" />}
      {switches.map(({ key, label }) => (
        <label key={key} className="flex items-center gap-3 text-sm">
          <input
            type="checkbox"
            checked={settings[key]}
            onChange={(event) => void change(key, event.target.checked)}
            className="h-4 w-4 accent-blue-700"
          />
          {label}
        </label>
      ))}
    </section>
  );
}
