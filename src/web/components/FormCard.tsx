import type { ReactNode } from 'react';

/** The framed, titled card every form screen sits in: full width on phones. */
export function FormCard({
  title,
  headingId,
  wide = false,
  children,
}: {
  title: string;
  headingId: string;
  /** Wider, for long text such as an article's description. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={headingId}
      className={`mx-auto w-full ${wide ? 'max-w-2xl' : 'max-w-md'} rounded-lg border border-slate-200 p-5 sm:p-8 dark:border-slate-800`}
    >
      <h1 id={headingId} className="mb-6 text-2xl font-bold tracking-tight">
        {title}
      </h1>
      {children}
    </section>
  );
}
