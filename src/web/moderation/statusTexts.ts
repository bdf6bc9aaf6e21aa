import type { ArticleStatus } from '../api/articleTypes.ts';

/**
 * What a not-published article's author and the editors read about its status on the article
 * page's banner. Small on purpose: the article page loads it (the profile's labels are in
 * statusLabels.ts, which it does not).
 */

export const statusBanners: Record<Exclude<ArticleStatus, 'published'>, string> = {
  draft: 'Draft: only you and the editors can see this article.',
  submitted: 'Submitted for review: an editor will publish it. Until then only you and the editors can see it.',
  hidden: 'Hidden by an editor: only you and the editors can see this article.',
  // The banner adds the time, in the reader's own time zone.
  scheduled: 'Scheduled for',
};

/** Said once on the article page after the editor saved it (router state `saved`). */
export const savedNotes: Partial<Record<ArticleStatus, string>> = {
  draft: 'Draft saved.',
  submitted: 'Submitted for review.',
  published: 'Published.',
};

export const hiddenReasonLabel = 'Reason:';
