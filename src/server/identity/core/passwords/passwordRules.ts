import { MAX_PASSWORD_LENGTH } from '../../../../shared/identityProtocol.ts';
import { accountMessages } from '../../../../shared/accountMessages.ts';
import { isOnlySpaces } from '../../../../shared/passwordRules.ts';
import { IdentityError } from '../identityErrors.ts';

/** The configured password rule, with the exact text clients show. */
export function checkPasswordStrength(password: string, minLength: number): void {
  if (isOnlySpaces(password)) {
    throw new IdentityError('WEAK_PASSWORD', { detail: accountMessages.passwordOnlySpaces });
  }
  if (password.length < minLength) {
    throw new IdentityError('WEAK_PASSWORD', { detail: `Password should be at least ${minLength} characters` });
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new IdentityError('WEAK_PASSWORD', {
      detail: `Password should be at most ${MAX_PASSWORD_LENGTH} characters`,
    });
  }
}
