import { paths } from '../../../../shared/routes.ts';
import type { MailMessage } from '../../../mail/mailer.ts';

/** The modes of the web app's `/action` page (docs/product.md, Screens), as the links name them. */
export type ActionMode = 'verifyEmail' | 'verifyAndChangeEmail' | 'recoverEmail';

export function actionLink(publicUrl: string, mode: ActionMode, code: string): string {
  return `${publicUrl}${paths.action}?mode=${mode}&oobCode=${encodeURIComponent(code)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Every message names the site as its operator calls it (SITE_TITLE), never the product. */

/** A message of paragraphs, one of them a link, in text and HTML. */
function message(options: {
  to: string;
  subject: string;
  before: string[];
  /** Absent: a notice with nothing to follow. */
  link?: { href: string; label: string };
  after: string[];
}): MailMessage {
  const { link } = options;
  const text = [
    'Hello,',
    '',
    ...options.before.flatMap((p) => [p, '']),
    ...(link ? [link.href, ''] : []),
    ...options.after,
  ].join('\n');
  const paragraphs = (list: string[]) => list.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const linkHtml = link
    ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
<p>If the button does not work, copy this address into your browser:<br>${escapeHtml(link.href)}</p>
`
    : '';
  const html = `<p>Hello,</p>
${paragraphs(options.before)}
${linkHtml}${paragraphs(options.after)}`;
  return { to: options.to, subject: options.subject, text, html };
}

/** The link that sets a password: a reset's, and an operator-made account's first. */
export const setPasswordLink = (publicUrl: string, code: string) =>
  `${publicUrl}${paths.resetPassword}?oobCode=${encodeURIComponent(code)}`;

/** To an account an operator made (`users create`): its link sets the first password and verifies the address. */
export function accountCreatedMessage(options: {
  to: string;
  publicUrl: string;
  siteTitle: string;
  code: string;
}): MailMessage {
  return message({
    to: options.to,
    subject: `Your ${options.siteTitle} account is ready`,
    before: [
      `An account with the address ${options.to} was made for you on ${options.siteTitle}.`,
      'To choose its password and sign in, open this link within the next 3 days:',
    ],
    link: { href: setPasswordLink(options.publicUrl, options.code), label: 'Choose your password' },
    after: [`If you did not expect this, ignore this email: nobody can sign in to the account without it.`],
  });
}

export function passwordResetEmail(options: {
  to: string;
  publicUrl: string;
  siteTitle: string;
  code: string;
}): MailMessage {
  return message({
    to: options.to,
    subject: `Reset your ${options.siteTitle} password`,
    before: [
      `Someone asked to reset the password of the ${options.siteTitle} account ${options.to}.`,
      'To choose a new password, open this link within the next hour:',
    ],
    link: {
      href: setPasswordLink(options.publicUrl, options.code),
      label: 'Reset your password',
    },
    after: ['If you did not ask for this, ignore this email: your password stays as it is.'],
  });
}

/** VERIFY_EMAIL: on sign-up, on request, and to the new address of a direct change. */
export function verifyEmailMessage(options: {
  to: string;
  publicUrl: string;
  siteTitle: string;
  code: string;
}): MailMessage {
  return message({
    to: options.to,
    subject: `Verify your ${options.siteTitle} email address`,
    before: [
      `To confirm that ${options.to} is the email address of your ${options.siteTitle} account, open this link within the next 3 days:`,
    ],
    link: { href: actionLink(options.publicUrl, 'verifyEmail', options.code), label: 'Verify your email address' },
    after: [`If you have no ${options.siteTitle} account with this address, ignore this email.`],
  });
}

/**
 * To the account holder when a pending sign-in ended on too many wrong two-step codes: someone
 * knows the password (DESIGN §9.1, decision 0552). No link: a mail that asks for a click is what
 * a phisher would send.
 */
export function secondStepFailuresNotice(options: { to: string; publicUrl: string; siteTitle: string }): MailMessage {
  return message({
    to: options.to,
    subject: `Someone entered your ${options.siteTitle} password`,
    before: [
      `Someone signed in to your ${options.siteTitle} account with its password, then entered wrong two-step verification codes until the sign-in was stopped.`,
      'Your account is safe while your authenticator app and recovery codes are.',
    ],
    after: [
      `If this was not you, choose a new password: go to ${options.publicUrl}${paths.forgotPassword} yourself rather than following a link.`,
      'If it was you, there is nothing to do.',
    ],
  });
}

/** VERIFY_AND_CHANGE_EMAIL: to the address an account asks to move to; nothing changes until it is opened. */
export function verifyAndChangeEmailMessage(options: {
  to: string;
  publicUrl: string;
  siteTitle: string;
  code: string;
}): MailMessage {
  return message({
    to: options.to,
    subject: `Confirm your new ${options.siteTitle} email address`,
    before: [
      `Someone asked to make ${options.to} the email address of their ${options.siteTitle} account.`,
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
  siteTitle: string;
  code: string;
}): MailMessage {
  return message({
    to: options.to,
    subject: `Your ${options.siteTitle} email address was changed`,
    before: [
      `The email address of your ${options.siteTitle} account was changed from ${options.to} to ${options.newEmail}.`,
      `If you did not do this, open this link within the next 7 days: it changes the address back to ${options.to} and signs the account out everywhere.`,
    ],
    link: { href: actionLink(options.publicUrl, 'recoverEmail', options.code), label: 'Undo the change' },
    after: [
      `Then choose a new password at ${options.publicUrl}${paths.forgotPassword}.`,
      'If you made the change yourself, ignore this email.',
    ],
  });
}
