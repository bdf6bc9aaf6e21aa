// One formatter for the page: building it is the expensive part. The reader's locale decides.
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** "Nov 21, 2026" (in the reader's locale); the raw text if the date cannot be read. */
export function formatArticleDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}
