// One formatter for the page: building it is the expensive part. The same on the server and in
// every browser (the page's language, the UTC day the API states), so the page the server
// rendered is the one the app takes over, to the character (decision 0301).
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** "Nov 21, 2026"; the raw text if the date cannot be read. */
export function formatArticleDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}
