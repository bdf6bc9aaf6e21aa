import type { ReactNode } from 'react';
import { smallButton } from './adminStyles.ts';

/** The next page of a staff list: a small button under it, unusable while a page loads. */
export function MoreButton({ busy, onMore, children }: { busy: boolean; onMore: () => void; children: ReactNode }) {
  return (
    <button type="button" className={`${smallButton} self-start`} disabled={busy} aria-busy={busy} onClick={onMore}>
      {children}
    </button>
  );
}
