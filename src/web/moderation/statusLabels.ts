import type { ArticleStatus } from '../api/articleTypes.ts';

/** Each not-published status as the profile's drafts name it (apart from statusTexts.ts: the article page's budget). */
export const statusLabels: Record<Exclude<ArticleStatus, 'published'>, string> = {
  draft: 'Draft',
  submitted: 'Submitted for review',
  hidden: 'Hidden',
  scheduled: 'Scheduled',
};
