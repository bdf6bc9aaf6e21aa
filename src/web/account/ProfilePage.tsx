import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { labels } from '../../shared/messages.ts';
import { accountLabels, accountFixedMessages } from '../../shared/accountTexts.ts';
import { accountMessages } from '../../shared/accountMessages.ts';
import { MAX_DISPLAY_NAME_LENGTH } from '../../shared/identityProtocol.ts';
import { isOnlySpaces } from '../../shared/passwordRules.ts';
import { paths } from '../../shared/routes.ts';
import { rolesMessages } from '../../shared/invitations.ts';
import { can } from '../../shared/roles.ts';
import { useRole } from '../auth/useRole.ts';
import type { AuthUser } from '../auth/authTypes.ts';
import { hasCode } from '../auth/errorCodes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { AccountCard } from './AccountCard.tsx';
import { AuthorProfileSection } from './AuthorProfileSection.tsx';
import { ProfileGroup } from './ProfileGroup.tsx';
import { ProfileNav } from './ProfileNav.tsx';
import { EmailVerification } from './EmailVerification.tsx';
import { FormAlert } from '../components/FormAlert.tsx';
import { FormField } from '../components/FormField.tsx';
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '../components/formStyles.ts';
import { PasskeysSection } from './PasskeysSection.tsx';
import { TwoStepSection } from './TwoStepSection.tsx';
import { CommentNotificationsSection } from '../comments/CommentNotificationsSection.tsx';
import { NewsletterSwitch } from './NewsletterSwitch.tsx';
import { SignInMethodsSection } from './SignInMethodsSection.tsx';
import { PasswordDialog } from './PasswordDialog.tsx';
import { ProfileArticles, profileArticlesText } from './ProfileArticles.tsx';
import { moderationTexts } from '../moderation/moderationTexts.ts';
import { YourDrafts } from '../moderation/YourDrafts.tsx';
import { SubmitButton } from './SubmitButton.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { useDeleteAccountWarning } from './useDeleteAccountWarning.ts';
import { usePasswordMinLength } from './usePasswordMinLength.ts';
import { accountSessionOf } from '../auth/accountSession.ts';

interface Draft {
  name: string;
  email: string;
  password: string;
  confirmation: string;
}

type Outcome = { message: string; tone: 'error' | 'success' } | null;

export function ProfilePage() {
  useDocumentTitle('Profile');
  const { state } = useAuth();
  const role = useRole();
  // RequireAuth renders this screen only for a signed-in user.
  const user = state.user as AuthUser;
  const session = useAuthSession();
  const navigate = useNavigate();
  const minLength = usePasswordMinLength();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft>({ name: '', email: '', password: '', confirmation: '' });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<'reauthenticate' | 'delete' | null>(null);
  // The delete dialog says how many articles go with the account.
  const deleteWarning = useDeleteAccountWarning(user.uid);

  function startEditing() {
    setDraft({ name: user.displayName ?? '', email: user.email, password: '', confirmation: '' });
    setOutcome(null);
    setEditing(true);
  }

  /** Applies only what changed (docs/product.md, Rules): name, email if different, password if given. */
  async function applyDraft(changes: Draft) {
    const current = session.state.user ?? user;
    const name = changes.name.trim();
    if (name !== (current.displayName ?? '')) await accountSessionOf(session).updateDisplayName(name);
    if (changes.email.trim() !== current.email) await accountSessionOf(session).updateEmail(changes.email.trim());
    if (changes.password !== '') await accountSessionOf(session).updatePassword(changes.password);
  }

  /** After a save attempt edit mode is closed. */
  function finishSave(result: Outcome) {
    setOutcome(result);
    setEditing(false);
    setBusy(false);
  }

  async function handleSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (draft.password !== draft.confirmation) {
      setOutcome({ message: accountFixedMessages.passwordsDoNotMatch, tone: 'error' });
      return;
    }
    if (isOnlySpaces(draft.password)) {
      setOutcome({ message: accountMessages.passwordOnlySpaces, tone: 'error' });
      return;
    }
    setOutcome(null);
    setBusy(true);
    try {
      await applyDraft(draft);
      finishSave({ message: accountMessages.profileUpdated, tone: 'success' });
    } catch (error) {
      // Email and password changes need a recent sign-in: ask for the password, then retry.
      if (hasCode(error, 'requires-recent-login')) setDialog('reauthenticate');
      else finishSave({ message: accountFixedMessages.profileUpdateFailed, tone: 'error' });
    }
  }

  async function reauthenticateAndRetry(password: string | null) {
    try {
      if (password !== null) await accountSessionOf(session).reauthenticate(password);
    } catch (error) {
      throw new Error(
        hasCode(error, 'invalid-credential') ? accountMessages.wrongPassword : accountFixedMessages.profileUpdateFailed,
        { cause: error },
      );
    }
    setDialog(null);
    try {
      await applyDraft(draft);
      finishSave({ message: accountMessages.profileUpdated, tone: 'success' });
    } catch {
      finishSave({ message: accountFixedMessages.profileUpdateFailed, tone: 'error' });
    }
  }

  async function deleteAccount(password: string | null) {
    try {
      if (password !== null) await accountSessionOf(session).reauthenticate(password);
    } catch (error) {
      throw new Error(
        hasCode(error, 'invalid-credential') ? accountMessages.wrongPassword : accountMessages.deleteAccountFailed,
        { cause: error },
      );
    }
    try {
      await accountSessionOf(session).deleteAccount();
    } catch (error) {
      throw new Error(accountMessages.deleteAccountFailed, { cause: error });
    }
    await navigate(paths.home, { replace: true });
  }

  async function logOut() {
    setBusy(true);
    // Signed out locally even when the server cannot be reached (then the error is logged).
    await session.signOut().catch((error: unknown) => console.error('sign-out did not reach the server', error));
    await navigate(paths.home, { replace: true });
  }

  const writes = !!role && can(role, 'article:write');
  return (
    <div className="profile-layout">
      {!editing && (
        <ProfileNav
          lists={[
            ...(writes ? [{ href: '#profile-drafts-heading', title: moderationTexts.yourDrafts }] : []),
            { href: '#profile-articles-heading', title: profileArticlesText.heading },
          ]}
        />
      )}
      <AccountCard title={labels.profile} wide>
        {editing ? (
          <form onSubmit={handleSave} className="flex flex-col gap-4">
            <FormAlert message={outcome?.message ?? null} tone={outcome?.tone ?? 'error'} />
            <FormField
              label={accountLabels.name}
              name="name"
              autoComplete="name"
              required
              maxLength={MAX_DISPLAY_NAME_LENGTH}
              value={draft.name}
              onChange={(event) => setDraft({ ...draft, name: event.target.value })}
            />
            <FormField
              label={accountLabels.email}
              type="email"
              name="email"
              autoComplete="email"
              required
              value={draft.email}
              onChange={(event) => setDraft({ ...draft, email: event.target.value })}
            />
            <FormField
              label={accountLabels.password}
              type="password"
              name="password"
              autoComplete="new-password"
              minLength={minLength}
              hint={accountMessages.keepPasswordHint}
              value={draft.password}
              onChange={(event) => setDraft({ ...draft, password: event.target.value })}
            />
            <FormField
              label={accountLabels.confirmPassword}
              type="password"
              name="confirmPassword"
              autoComplete="new-password"
              value={draft.confirmation}
              onChange={(event) => setDraft({ ...draft, confirmation: event.target.value })}
            />
            <div className="flex flex-col gap-2 sm:flex-row-reverse">
              <SubmitButton busy={busy}>{accountLabels.saveUpdates}</SubmitButton>
              <button
                type="button"
                className={secondaryButtonClass}
                disabled={busy}
                onClick={() => {
                  setOutcome(null);
                  setEditing(false);
                }}
              >
                {accountLabels.cancelEdit}
              </button>
            </div>
          </form>
        ) : (
          <div className="flex flex-col gap-10">
            <ProfileGroup id="profile-about">
              <FormAlert message={outcome?.message ?? null} tone={outcome?.tone ?? 'error'} />
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 break-all">
                <dt className="font-medium text-slate-600 dark:text-slate-400">{accountLabels.name}</dt>
                <dd data-testid="profile-name" dir="auto">
                  {user.displayName ?? ''}
                </dd>
                <dt className="font-medium text-slate-600 dark:text-slate-400">{accountLabels.email}</dt>
                <dd data-testid="profile-email" dir="auto">
                  {user.email}
                </dd>
              </dl>
              <EmailVerification email={user.email} />
              {role && can(role, 'members:manage') && (
                <Link to={paths.admin} className={`${secondaryButtonClass} no-underline`} data-testid="admin-link">
                  {rolesMessages.admin}
                </Link>
              )}
              <button type="button" className={primaryButtonClass} onClick={startEditing}>
                {accountLabels.updateProfile}
              </button>
              <SubmitButton type="button" busy={busy} variant={secondaryButtonClass} onClick={() => void logOut()}>
                {accountLabels.logOut}
              </SubmitButton>
              <AuthorProfileSection uid={user.uid} />
            </ProfileGroup>
            <ProfileGroup id="profile-sign-in">
              <SignInMethodsSection />
              <PasskeysSection />
              <TwoStepSection />
            </ProfileGroup>
            <ProfileGroup id="profile-notifications">
              <CommentNotificationsSection />
              <NewsletterSwitch />
            </ProfileGroup>
            <div>
              {writes && <YourDrafts />}
              <ProfileArticles />
            </div>
            <ProfileGroup id="profile-danger" danger>
              <button
                type="button"
                className={dangerButtonClass}
                onClick={() => {
                  deleteWarning.recount();
                  setDialog('delete');
                }}
              >
                {accountMessages.deleteAccountTitle}
              </button>
            </ProfileGroup>
          </div>
        )}
        <PasswordDialog
          open={dialog === 'reauthenticate'}
          title={accountMessages.confirmItsYou}
          description={accountMessages.reauthenticateReason}
          confirmLabel={accountMessages.confirm}
          onConfirm={reauthenticateAndRetry}
          onCancel={() => {
            // Declining to confirm is not a failure: the form stays open with what was typed, to
            // save again or cancel. (Anything already applied, such as a new name, stays applied.)
            setDialog(null);
            setBusy(false);
          }}
        />
        <PasswordDialog
          open={dialog === 'delete'}
          title={accountMessages.deleteAccountTitle}
          description={deleteWarning.warning}
          confirmLabel={accountMessages.deleteAccountTitle}
          danger
          onConfirm={deleteAccount}
          onCancel={() => setDialog(null)}
        />
      </AccountCard>
    </div>
  );
}
