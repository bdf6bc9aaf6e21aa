import { expect } from '@playwright/test';
// The SMTP sink's own mail shape: src/server/testing/smtpSinkServer.ts serves these as JSON.
import type { ReceivedMail } from '../../test/support/smtpSink.ts';

function mailboxUrl(): string {
  const url = process.env.E2E_MAILBOX_URL;
  if (!url) throw new Error('E2E_MAILBOX_URL is not set: run the tests through playwright.config.ts');
  return url;
}

export async function allMail(): Promise<ReceivedMail[]> {
  const response = await fetch(mailboxUrl());
  if (!response.ok) throw new Error(`the mailbox answered ${response.status}`);
  return (await response.json()) as ReceivedMail[];
}

/** Waits for the newest email to `to` whose subject matches, as the app really sent it over SMTP. */
export async function waitForMail(to: string, subject: RegExp): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        const mail = await allMail();
        found = mail
          .filter((m) => m.to.some((a) => a.toLowerCase() === to.toLowerCase()) && subject.test(m.subject))
          .at(-1);
        return found !== undefined;
      },
      { message: `an email to ${to} with subject ${subject}`, timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

/** The first link in an email's text that goes to the given path of the app. */
export function linkIn(mail: ReceivedMail, pathname: string): URL {
  for (const candidate of mail.text.match(/https?:\/\/\S+/g) ?? []) {
    const url = new URL(candidate);
    if (url.pathname === pathname) return url;
  }
  throw new Error(`no ${pathname} link in the email "${mail.subject}"`);
}
