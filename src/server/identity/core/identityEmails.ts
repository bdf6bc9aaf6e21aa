import type { MailMessage } from '../../mail/mailer.ts';

/** The modes of the web app's `/action` page (docs/product.md, Screens), as the links name them. */
export type ActionMode = 'verifyEmail' | 'verifyAndChangeEmail' | 'recoverEmail';

export function actionLink(publicUrl: string, mode: ActionMode, code: string): string {
  return `${publicUrl}/action?mode=${mode}&oobCode=${encodeURIComponent(code)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A message of paragraphs, one of them a link, in text and HTML. */
function message(options: {
  to: string;
  subject: string;
  before: string[];
  link: { href: string; label: string };
  after: string[];
}): MailMessage {
  const { href, label } = options.link;
  const text = ['Hello,', '', ...options.before.flatMap((p) => [p, '']), href, '', ...options.after].join('\n');
  const paragraphs = (list: string[]) => list.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const html = `<p>Hello,</p>
${paragraphs(options.before)}
<p><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>
<p>If the button does not work, copy this address into your browser:<br>${escapeHtml(href)}</p>
${paragraphs(options.after)}`;
  return { to: options.to, subject: options.subject, text, html };
}

export function passwordResetEmail(options: { to: string; publicUrl: string; code: string }): MailMessage {
  return message({
    to: options.to,
    subject: 'Reset your Inkwell password',
    before: [
      `Someone asked to reset the password of the Inkwell account ${options.to}.`,
      'To choose a new password, open this link within the next hour:',
    ],
    link: {
      href: `${options.publicUrl}/reset-password?oobCode=${encodeURIComponent(options.code)}`,
      label: 'Reset your password',
    },
    after: ['If you did not ask for this, ignore this email: your password stays as it is.'],
  });
}

/** VERIFY_EMAIL: on sign-up, on request, and to the new address of a direct change. */
export function verifyEmailMessage(options: { to: string; publicUrl: string; code: string }): MailMessage {
  return message({
    to: options.to,
    subject: 'Verify your Inkwell email address',
    before: [
      `To confirm that ${options.to} is the email address of your Inkwell account, open this link within the next 3 days:`,
    ],
    link: { href: actionLink(options.publicUrl, 'verifyEmail', options.code), label: 'Verify your email address' },
    after: ['If you have no Inkwell account with this address, ignore this email.'],
  });
}

/** VERIFY_AND_CHANGE_EMAIL: to the address an account asks to move to; nothing changes until it is opened. */
export function verifyAndChangeEmailMessage(options: { to: string; publicUrl: string; code: string }): MailMessage {
  return message({
    to: options.to,
    subject: 'Confirm your new Inkwell email address',
    before: [
      `Someone asked to make ${options.to} the email address of their Inkwell account.`,
      'To make the change, open this link within the next 3 days:',
    ],
    link: {
      href: actionLink(options.publicUrl, 'verifyAndChangeEmail', options.code),
      label: 'Use this email address',
    },
    after: ['If you did not ask for this, ignore this email: nothing changes.'],
  });
}

/** To the old address after a change, holding the RECOVER_EMAIL link that undoes it. */
export function emailChangedNotice(options: {
  to: string;
  newEmail: string;
  publicUrl: string;
  code: string;
}): MailMessage {
  return message({
    to: options.to,
    subject: 'Your Inkwell email address was changed',
    before: [
      `The email address of your Inkwell account was changed from ${options.to} to ${options.newEmail}.`,
      `If you did not do this, open this link within the next 7 days: it changes the address back to ${options.to} and signs the account out everywhere.`,
    ],
    link: { href: actionLink(options.publicUrl, 'recoverEmail', options.code), label: 'Undo the change' },
    after: [
      `Then choose a new password at ${options.publicUrl}/forgot-password.`,
      'If you made the change yourself, ignore this email.',
    ],
  });
}
