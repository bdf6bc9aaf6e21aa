import { useEffect, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { labels } from '../../shared/messages.ts';
import { emailActionMessages } from '../../shared/accountMessages.ts';
import { paths } from '../../shared/routes.ts';
import type { AuthSession } from '../auth/authSession.ts';
import { hasCode } from '../auth/errorCodes.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { AccountCard } from './AccountCard.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { linkClass } from '../components/formStyles.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

type Mode = 'verifyEmail' | 'verifyAndChangeEmail' | 'recoverEmail';
const MODES: readonly string[] = ['verifyEmail', 'verifyAndChangeEmail', 'recoverEmail'];

type Result =
  | { status: 'working' }
  | { status: 'done'; mode: Mode; email: string }
  | { status: 'failed'; message: string; mode: Mode | null };

// A code is applied once per page load, even when React runs the effect twice (StrictMode): the
// second application of a single-use code would report a spent link.
const applying = new Map<string, Promise<string>>();
function applyOnce(session: AuthSession, oobCode: string, mode: Mode): Promise<string> {
  let pending = applying.get(oobCode);
  if (pending === undefined) {
    pending = accountSessionOf(session).applyActionCode(oobCode, mode);
    applying.set(oobCode, pending);
  }
  return pending;
}

function doneMessage(mode: Mode, email: string): string {
  if (mode === 'verifyEmail') return emailActionMessages.emailVerified(email);
  if (mode === 'verifyAndChangeEmail') return emailActionMessages.emailChanged(email);
  return emailActionMessages.emailRecovered(email);
}

/**
 * Where emailed action links land (docs/product.md, Screens): applies a verify, change or recover code
 * and says what happened; a reset link goes on to the reset page.
 */
export function EmailActionPage() {
  useDocumentTitle(emailActionMessages.actionTitle);
  const session = useAuthSession();
  const [searchParams] = useSearchParams();
  const mode = searchParams.get('mode') ?? '';
  const oobCode = searchParams.get('oobCode') ?? '';
  const known = MODES.includes(mode) && oobCode !== '';
  const [result, setResult] = useState<Result>(() =>
    known ? { status: 'working' } : { status: 'failed', message: emailActionMessages.actionLinkIncomplete, mode: null },
  );

  useEffect(() => {
    if (!known) return;
    let current = true;
    const action = mode as Mode;
    applyOnce(session, oobCode, action).then(
      (email) => current && setResult({ status: 'done', mode: action, email }),
      (error: unknown) => {
        if (!current) return;
        const spent = hasCode(error, 'invalid-action-code') || hasCode(error, 'expired-action-code');
        setResult({
          status: 'failed',
          message: spent ? emailActionMessages.actionLinkInvalid : emailActionMessages.actionFailed,
          mode: action,
        });
      },
    );
    return () => {
      current = false;
    };
  }, [known, mode, oobCode, session]);

  if (mode === 'resetPassword' && oobCode !== '') {
    return <Navigate to={`${paths.resetPassword}?oobCode=${encodeURIComponent(oobCode)}`} replace />;
  }

  return (
    <AccountCard title={emailActionMessages.actionTitle}>
      {result.status === 'working' && (
        <p aria-busy="true" className="min-h-12 text-sm">
          {emailActionMessages.actionWorking}
        </p>
      )}
      {result.status === 'done' && (
        <div className="flex flex-col gap-4">
          <FormAlert message={doneMessage(result.mode, result.email)} tone="success" />
          <p className="text-sm">
            {result.mode === 'verifyEmail' ? (
              <Link to={paths.profile} className={linkClass}>
                {emailActionMessages.goToProfile}
              </Link>
            ) : (
              <>
                <Link to={paths.login} className={linkClass}>
                  {labels.login}
                </Link>
                {result.mode === 'recoverEmail' && (
                  <>
                    {' · '}
                    <Link to={paths.forgotPassword} className={linkClass}>
                      {emailActionMessages.chooseNewPassword}
                    </Link>
                  </>
                )}
              </>
            )}
          </p>
        </div>
      )}
      {result.status === 'failed' && (
        <div className="flex flex-col gap-4">
          <FormAlert message={result.message} tone="error" />
          <p className="text-sm">
            <Link to={paths.profile} className={linkClass}>
              {emailActionMessages.goToProfile}
            </Link>
          </p>
        </div>
      )}
    </AccountCard>
  );
}
