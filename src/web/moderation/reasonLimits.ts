// The server's limits (shared/moderation.ts, which has no zod: the article page's lazy chunk stays small).
export {
  HIDE_REASON_MAX_LENGTH as HIDE_REASON_MAX,
  REPORT_REASON_MAX_LENGTH as REPORT_REASON_MAX,
} from '../../shared/moderation.ts';
