import type { MailMessage } from '../mail/mailer.ts';
import { escapeHtml } from '../publishing/markupText.ts';
import { roleLabels, type Role } from '../../shared/roles.ts';

/**
 * The mail an invitation sent to an address goes out as (issue 39.7): who invites, to what
 * role, the link and until when it works. The link is the same one the inviter is shown once;
 * the mail is the one other place it goes.
 */
export function invitationMessage(options: {
  to: string;
  siteTitle: string;
  role: Role;
  url: string;
  expiresAt: number;
}): MailMessage {
  const role = roleLabels[options.role].toLowerCase();
  const article = /^[aeiou]/.test(role) ? 'an' : 'a';
  const until = new Date(options.expiresAt).toUTCString();
  const lines = [
    `You are invited to ${options.siteTitle} as ${article} ${role}.`,
    'Open this link to make your account with this email address. It works once, until ' + until + '.',
  ];
  const ignore = 'If you did not expect this, you can ignore this email: nothing happens without the link.';
  return {
    to: options.to,
    subject: `You are invited to ${options.siteTitle}`,
    text: ['Hello,', '', ...lines, '', options.url, '', ignore].join('\n'),
    html: [
      '<p>Hello,</p>',
      ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
      `<p><a href="${escapeHtml(options.url)}">${escapeHtml(options.url)}</a></p>`,
      `<p>${escapeHtml(ignore)}</p>`,
    ].join('\n'),
  };
}
