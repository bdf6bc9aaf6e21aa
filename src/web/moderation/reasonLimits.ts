/** Reason lengths of DESIGN.md §8.2, in characters as a person counts them (the server's rule too). */
export const HIDE_REASON_MAX = 500;
export const REPORT_REASON_MAX = 1000;
