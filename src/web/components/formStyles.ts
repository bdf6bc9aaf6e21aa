/** Class lists shared by the account forms, matching the top bar's look in light and dark. */
export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm ' +
  'focus:border-blue-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100';

export const primaryButtonClass =
  'inline-flex w-full items-center justify-center gap-2 rounded-md bg-blue-700 px-4 py-2 font-medium text-white ' +
  'hover:bg-blue-800 disabled:cursor-not-allowed disabled:opacity-60';

export const secondaryButtonClass =
  'inline-flex w-full items-center justify-center gap-2 rounded-md border border-slate-300 px-4 py-2 font-medium ' +
  'hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800';

export const dangerButtonClass =
  'inline-flex w-full items-center justify-center gap-2 rounded-md border border-red-700 px-4 py-2 font-medium ' +
  'text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60 dark:border-red-400 dark:text-red-400 dark:hover:bg-red-950';

export const linkClass = 'text-blue-700 underline hover:no-underline dark:text-blue-400';
