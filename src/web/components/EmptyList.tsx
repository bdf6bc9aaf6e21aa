import type { ReactNode } from 'react';

/** What an empty list says, and what to do next. */
export function EmptyList({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-list">
      <p className="font-serif text-xl text-slate-700 dark:text-slate-300">{children}</p>
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}
