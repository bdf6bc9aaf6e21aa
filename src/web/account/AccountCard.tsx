import type { ReactNode } from 'react';

/** The frame every account screen sits in: a titled card, full width on phones. */
export function AccountCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby="account-card-title"
      className="mx-auto w-full max-w-md rounded-lg border border-slate-200 p-5 sm:p-8 dark:border-slate-800"
    >
      <h1 id="account-card-title" className="mb-6 text-2xl font-bold tracking-tight">
        {title}
      </h1>
      {children}
    </section>
  );
}
