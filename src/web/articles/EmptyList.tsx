import type { ReactNode } from 'react';

/** What an empty list says, and what to do next. */
export function EmptyList({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 px-6 py-14 text-center dark:border-slate-700">
      <p className="font-serif text-xl text-slate-700 dark:text-slate-300">{children}</p>
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}
