import type { ReactNode } from 'react';

/** What an empty list says, and what to do next (its looks: `.empty-list` in styles.css). */
export function EmptyList({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-list">
      <p>{children}</p>
      {action && <div>{action}</div>}
    </div>
  );
}
