import { z } from 'zod';

export const REPORT_STATUSES = ['open', 'hidden', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_REASON_MAX = 1000;
/** A note is the hiding reason when given, and a hiding reason has at most 500 characters (DESIGN.md §8.2). */
export const HIDE_REASON_MAX = 500;
/** Reports one person may make in a day. */
export const REPORTS_PER_DAY = 20;
/** The most reports one GET /api/reports answers with, oldest first: older ones are handled first. */
export const REPORTS_LIST_MAX = 200;

export const reportBody = z.strictObject({
  reason: z
    .string({ error: `Give a reason: 1 to ${REPORT_REASON_MAX} characters.` })
    .trim()
    .min(1, `Give a reason: 1 to ${REPORT_REASON_MAX} characters.`)
    .max(REPORT_REASON_MAX, `A reason has at most ${REPORT_REASON_MAX} characters.`),
});

export const resolveBody = z.strictObject({
  action: z.enum(['hide', 'dismiss'], { error: 'Choose hide or dismiss.' }),
  note: z
    .string({ error: `Give a note of 1 to ${HIDE_REASON_MAX} characters, or leave it out.` })
    .trim()
    .min(1, `Give a note of 1 to ${HIDE_REASON_MAX} characters, or leave it out.`)
    .max(HIDE_REASON_MAX, `A note has at most ${HIDE_REASON_MAX} characters.`)
    .optional(),
});

export const listQuery = z.strictObject({
  status: z.enum(REPORT_STATUSES, { error: `Choose one of ${REPORT_STATUSES.join(', ')}.` }).default('open'),
});

/**
 * The reason an article is hidden with: the editor's note, else the report's reason, cut to a
 * hiding reason's 500 characters (a report's may have 1000).
 */
export function hidingReason(note: string | undefined, reportReason: string): string {
  if (note !== undefined) return note;
  return reportReason.length <= HIDE_REASON_MAX ? reportReason : `${reportReason.slice(0, HIDE_REASON_MAX - 1)}…`;
}
export type ListQuery = z.output<typeof listQuery>;
