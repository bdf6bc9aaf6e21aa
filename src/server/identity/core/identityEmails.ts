import type { MailMessage } from '../../mail/mailer.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function passwordResetEmail(options: { to: string; publicUrl: string; code: string }): MailMessage {
  const link = `${options.publicUrl}/reset-password?oobCode=${encodeURIComponent(options.code)}`;
  const text = [
    'Hello,',
    '',
    `Someone asked to reset the password of the Inkwell account ${options.to}.`,
    'To choose a new password, open this link within the next hour:',
    '',
    link,
    '',
    'If you did not ask for this, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = `<p>Hello,</p>
<p>Someone asked to reset the password of the Inkwell account ${escapeHtml(options.to)}.</p>
<p>To choose a new password, open this link within the next hour:</p>
<p><a href="${escapeHtml(link)}">Reset your password</a></p>
<p>If the button does not work, copy this address into your browser:<br>${escapeHtml(link)}</p>
<p>If you did not ask for this, ignore this email: your password stays as it is.</p>`;
  return { to: options.to, subject: 'Reset your Inkwell password', text, html };
}

export function emailChangedNotice(options: { to: string; newEmail: string; publicUrl: string }): MailMessage {
  const text = [
    'Hello,',
    '',
    `The email address of your Inkwell account was changed from ${options.to} to ${options.newEmail}.`,
    '',
    `If you did not do this, reset your password at ${options.publicUrl}/forgot-password using the new`,
    'address if you can, and contact the site operator.',
  ].join('\n');
  const html = `<p>Hello,</p>
<p>The email address of your Inkwell account was changed from ${escapeHtml(options.to)} to ${escapeHtml(options.newEmail)}.</p>
<p>If you did not do this, contact the site operator and reset your password at
<a href="${escapeHtml(options.publicUrl)}/forgot-password">${escapeHtml(options.publicUrl)}/forgot-password</a>.</p>`;
  return { to: options.to, subject: 'Your Inkwell email address was changed', text, html };
}
