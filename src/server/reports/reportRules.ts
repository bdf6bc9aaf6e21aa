import { z } from 'zod';
import {
  characterCount,
  HIDE_REASON_MAX_LENGTH as HIDE_REASON_MAX,
  REPORT_REASON_MAX_LENGTH as REPORT_REASON_MAX,
  REPORT_STATUSES,
} from '../../shared/moderation.ts';

export { REPORT_STATUSES, type ReportStatus } from '../../shared/moderation.ts';
// A note is the hiding reason when given, so it has a hiding reason's limit (DESIGN.md §8.2).
/** Reports one person may make in a day. */
export const REPORTS_PER_DAY = 20;
/** The most reports one GET /api/reports answers with, oldest first: older ones are handled first. */
export const REPORTS_LIST_MAX = 200;

export const reportBody = z.strictObject({
  reason: z
    .string({ error: `Give a reason: 1 to ${REPORT_REASON_MAX} characters.` })
    .trim()
    .min(1, `Give a reason: 1 to ${REPORT_REASON_MAX} characters.`)
    .refine(
      (reason) => characterCount(reason) <= REPORT_REASON_MAX,
      `A reason has at most ${REPORT_REASON_MAX} characters.`,
    ),
});

export const resolveBody = z.strictObject({
  action: z.enum(['hide', 'dismiss'], { error: 'Choose hide or dismiss.' }),
  note: z
    .string({ error: `Give a note of 1 to ${HIDE_REASON_MAX} characters, or leave it out.` })
    .trim()
    .min(1, `Give a note of 1 to ${HIDE_REASON_MAX} characters, or leave it out.`)
    .refine((note) => characterCount(note) <= HIDE_REASON_MAX, `A note has at most ${HIDE_REASON_MAX} characters.`)
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
  if (characterCount(reportReason) <= HIDE_REASON_MAX) return reportReason;
  return `${[...reportReason].slice(0, HIDE_REASON_MAX - 1).join('')}…`;
}
export type ListQuery = z.output<typeof listQuery>;
