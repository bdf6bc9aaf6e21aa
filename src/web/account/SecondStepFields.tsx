import { FormField } from '../components/FormField.tsx';
import { twoStepMessages } from './twoStepMessages.ts';
import { hasCode } from '../auth/errorCodes.ts';

/** The code field of a sign-in's second step: a 6-digit code, or a recovery code. */
export function SecondStepField({ value, onChange }: { value: string; onChange(value: string): void }) {
  return (
    <FormField
      label={twoStepMessages.codeLabel}
      name="code"
      // Not numeric-only: a recovery code has letters.
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      required
      autoFocus
      maxLength={32}
      hint={twoStepMessages.stepCodeHint}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** What a failed second step says; `restart` when the waiting sign-in is gone and the password is needed again. */
export function secondStepFailure(error: unknown): { message: string; restart: boolean } {
  if (hasCode(error, 'invalid-verification-code')) return { message: twoStepMessages.wrongCode, restart: false };
  if (hasCode(error, 'too-many-requests')) return { message: twoStepMessages.tooMany, restart: false };
  if (hasCode(error, 'invalid-multi-factor-session')) return { message: twoStepMessages.signInAgain, restart: true };
  return { message: twoStepMessages.failed, restart: false };
}

/** A code as typed: spaces (apps show "123 456") removed. */
export const typedCode = (value: string): string => value.replace(/\s+/g, '');
