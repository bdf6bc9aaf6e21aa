import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api/apiError.ts';
import { callApi } from '../api/callApi.ts';
import { useAuth } from '../auth/useAuth.ts';
import { siteInfo } from '../components/siteInfo.ts';

/**
 * The profile's newsletter switch (DESIGN.md §9.3): a signed-in person with a verified address
 * subscribes with one click, no confirmation mail; off removes the address. Shown when the site
 * has a newsletter.
 */
export function NewsletterSwitch() {
  const { getIdToken } = useAuth();
  const tokenRef = useRef(getIdToken);
  const id = useId();
  const [subscribed, setSubscribed] = useState<boolean | undefined>(undefined);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enabled = siteInfo().newsletter === true;
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    callApi<{ subscribed: boolean }>('GET', '/subscribers/me', { token: tokenRef.current })
      .then((answer) => live && setSubscribed(answer.subscribed))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [enabled]);
  if (!enabled || subscribed === undefined) return null;

  async function change(wanted: boolean) {
    setBusy(true);
    setMessage(null);
    try {
      const answer = await callApi<{ subscribed: boolean }>(wanted ? 'PUT' : 'DELETE', '/subscribers/me', {
        token: tokenRef.current,
        ...(wanted ? { body: {} } : {}),
      });
      setSubscribed(answer.subscribed);
    } catch (caught) {
      setMessage(
        caught instanceof ApiError && caught.status === 403
          ? 'Verify your email address first: the newsletter goes to it.'
          : 'That did not work. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="mt-6">
      <h3 id={`${id}-heading`} className="text-base font-semibold">
        Newsletter
      </h3>
      <label className="mt-2 flex items-center gap-2">
        <input
          type="checkbox"
          checked={subscribed}
          disabled={busy}
          onChange={(event) => void change(event.target.checked)}
        />
        Get new articles by email
      </label>
      {message && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {message}
        </p>
      )}
    </section>
  );
}
