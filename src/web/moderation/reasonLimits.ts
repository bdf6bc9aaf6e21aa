// The server's limits, restated: importing them would bring zod (articleSchema.ts, reportRules.ts)
// into the article page's lazy chunk. test/web moderation limits test keeps them equal.

/** A hide's reason: 1 to 500 characters as a person counts them (DESIGN.md §8.2; articleSchema.ts). */
export const HIDE_REASON_MAX = 500;
/** A report's reason: 1 to 1000 characters (DESIGN.md §8.2; src/server/reports/reportRules.ts). */
export const REPORT_REASON_MAX = 1000;
