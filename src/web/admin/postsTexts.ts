import type { ArticleStatus } from '../api/articleTypes.ts';

/** The `/admin` Posts tab's own texts (not the spec's). */
export const postsTexts = {
  tab: 'Posts',
  searchLabel: 'Search titles',
  searchFormLabel: 'Search posts',
  search: 'Search',
  statusLabel: 'Status',
  anyStatus: 'Any status',
  empty: 'No articles.',
  noMatch: 'No articles match.',
  loadFailed: 'The articles could not be loaded.',
  more: 'More',
  byline: 'by',
} as const;

/** Each status as the Posts tab names it, in the filter's order. */
export const postStatusLabels: Record<ArticleStatus, string> = {
  published: 'Published',
  draft: 'Draft',
  submitted: 'Submitted for review',
  hidden: 'Hidden',
  scheduled: 'Scheduled',
};
