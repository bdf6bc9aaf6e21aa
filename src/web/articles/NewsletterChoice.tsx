import { useEffect, useRef, useState } from 'react';
import { callApi, type TokenSource } from '../api/callApi.ts';
import { siteInfo } from '../components/siteInfo.ts';

/**
 * "Email to N subscribers", checked (DESIGN.md §9.3): shown in the editor while the article has
 * not been published, when the site has a newsletter. Unchecked, the publication sends none.
 */
export function NewsletterChoice({
  checked,
  onChange,
  token,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  token: TokenSource;
}) {
  const [subscribers, setSubscribers] = useState<number | null>(null);
  const enabled = siteInfo().newsletter === true;
  // Asked once per editor: the token source may be a new function at each render.
  const tokenRef = useRef(token);
  useEffect(() => {
    const token = tokenRef.current;
    if (!enabled) return;
    let live = true;
    callApi<{ enabled: boolean; subscribers: number }>('GET', '/newsletters/audience', { token })
      .then((audience) => {
        if (live && audience.enabled) setSubscribers(audience.subscribers);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [enabled]);
  if (!enabled || subscribers === null) return null;
  return (
    <label className="flex items-center gap-2 font-sans text-sm">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      Email to {subscribers} {subscribers === 1 ? 'subscriber' : 'subscribers'}
    </label>
  );
}
