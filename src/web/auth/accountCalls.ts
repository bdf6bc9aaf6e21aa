import { withAccountCodes } from './accountErrorCodes.ts';
import type { UpdateAccountRequest } from '../../shared/identityRequests.ts';
import type { SecondStepRequired } from '../../shared/twoStepProtocol.ts';
import type { IdentityClient, ResetPasswordResponse, SignInResponse, UpdateAccountResponse } from './identityClient.ts';

/** The fields of accounts:update these calls change (returnSecureToken is always sent). */
export type UpdateRequest = Pick<
  UpdateAccountRequest,
  'idToken' | 'displayName' | 'email' | 'password' | 'photoUrl' | 'deleteAttribute'
>;

/**
 * The identity server's calls only the account screens make (sign in, sign up, reset, change,
 * delete), on the client's `post`, their errors named with the account screens' codes. Apart from identityClient.ts so that the home page, which only
 * restores a session and signs out, does not load them (decision 0181).
 */
export function accountCalls(client: Pick<IdentityClient, 'post'>) {
  const post = <T>(path: string, body: object): Promise<T> =>
    client.post<T>(path, body).catch((error: unknown) => {
      throw withAccountCodes(error);
    });
  return {
    /** Any other call of the account screens (two-step, passkeys, providers). */
    post,
    signUp: (email: string, password: string, inviteCode?: string) =>
      post<SignInResponse>('v1/accounts:signUp', {
        email,
        password,
        ...(inviteCode ? { inviteCode } : {}),
        returnSecureToken: true,
      }),
    /** Tokens, or (two-step on) what the second step needs. */
    signInWithPassword: (email: string, password: string) =>
      post<SignInResponse | SecondStepRequired>('v1/accounts:signInWithPassword', {
        email,
        password,
        returnSecureToken: true,
      }),
    update: (request: UpdateRequest) =>
      post<UpdateAccountResponse>('v1/accounts:update', { ...request, returnSecureToken: true }),
    async deleteAccount(idToken: string): Promise<void> {
      await post('v1/accounts:delete', { idToken });
    },
    async sendPasswordResetEmail(email: string): Promise<void> {
      await post('v1/accounts:sendOobCode', { requestType: 'PASSWORD_RESET', email });
    },
    /** Checks a reset code without using it (no newPassword); answers the account's email. */
    async verifyPasswordResetCode(oobCode: string): Promise<string> {
      return (await post<ResetPasswordResponse>('v1/accounts:resetPassword', { oobCode })).email;
    },
    async confirmPasswordReset(oobCode: string, newPassword: string): Promise<string> {
      return (await post<ResetPasswordResponse>('v1/accounts:resetPassword', { oobCode, newPassword })).email;
    },
    /** Mails the signed-in account's address a verification link (VERIFY_EMAIL). */
    async sendEmailVerification(idToken: string): Promise<void> {
      await post('v1/accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken });
    },
    /**
     * Applies a verify, change or recover code (the SDK's applyActionCode); answers the account as
     * it is now. `idToken`: this browser's account, which a verification then claims (Inkwell's).
     */
    applyActionCode: (oobCode: string, idToken?: string) =>
      post<UpdateAccountResponse>('v1/accounts:update', idToken === undefined ? { oobCode } : { oobCode, idToken }),
  };
}

export type AccountCalls = ReturnType<typeof accountCalls>;
