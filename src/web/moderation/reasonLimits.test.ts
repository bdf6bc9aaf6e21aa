import { describe, expect, it } from 'vitest';
import { HIDE_REASON_MAX_LENGTH } from '../../shared/articleSchema.ts';
import { REPORT_REASON_MAX as SERVER_REPORT_REASON_MAX } from '../../server/reports/reportRules.ts';
import { HIDE_REASON_MAX, REPORT_REASON_MAX } from './reasonLimits.ts';

describe('the dialogs’ reason limits', () => {
  it('are the server’s: a reason the dialog accepts is one the server accepts', () => {
    expect(HIDE_REASON_MAX).toBe(HIDE_REASON_MAX_LENGTH);
    expect(REPORT_REASON_MAX).toBe(SERVER_REPORT_REASON_MAX);
  });
});
