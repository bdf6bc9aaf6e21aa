import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, runAdmin } from '../../../test/support/adminRunner.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { storageDatabases } from '../../../test/support/testDatabases.ts';
import { signUpAs } from '../../../test/support/staffAccounts.ts';

// `npm run admin -- subscribers import FILE.csv` and `subscribers export` (DESIGN.md §9.3).
describe.each(storageDatabases())('subscribers import and export on $dialect', (dialectCase) => {
  let server: TestApp;
  let dir: string;
  beforeAll(async () => {
    server = await startTestApp(dialectCase, { NEWSLETTER: 'on' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-csv-'));
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const admin = (args: string[]) =>
    runAdmin(args, { DATABASE_URL: databaseUrl(server.config.database), DATA_DIR: server.config.dataDir });

  it('imports the email column of Mailchimp, Substack and Ghost exports as confirmed, once each, and exports them', async () => {
    const mailchimp = path.join(dir, 'mailchimp.csv');
    fs.writeFileSync(
      mailchimp,
      '\uFEFF"Email Address","First Name","Last Name"\r\n"ada@example.org","Ada","L, the first"\r\nnot-an-address,x,y\r\n',
    );
    const substack = path.join(dir, 'substack.csv');
    fs.writeFileSync(
      substack,
      'email,active_subscription,created_at\nADA@example.org,false,2024\nbo@example.org,true,2024\n',
    );
    const first = await admin(['subscribers', 'import', mailchimp]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Subscribers: 1 added, 0 already here, 1 rows without a valid address.');
    const second = await admin(['--json', 'subscribers', 'import', substack]);
    expect(JSON.parse(second.stdout)).toEqual({ added: 1, known: 1, invalid: 0 });
    const none = path.join(dir, 'none.csv');
    fs.writeFileSync(none, 'name\nAda\n');
    const refused = await admin(['subscribers', 'import', none]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('has no column named email');

    const exported = await admin(['subscribers', 'export']);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trim().split('\n');
    expect(lines[0]).toBe('email,status,created_at');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual([
      'ada@example.org,confirmed',
      'bo@example.org,confirmed',
    ]);
    // Imported subscribers are what a send reaches.
    const editor = await signUpAs(server, 'Eddie Editor', 'editor', { verified: true });
    const view = await fetch(`${server.url}/api/newsletters`, {
      headers: { authorization: `Bearer ${editor.idToken}` },
    });
    expect(await view.json()).toMatchObject({ enabled: true, subscribers: 2, sends: [] });
  });

  it('pages the subscribers by address, 50 a page: pages neither overlap nor skip, and the last says so', async () => {
    const many = path.join(dir, 'many.csv');
    const imported = Array.from({ length: 120 }, (_, index) => `reader${String(index).padStart(3, '0')}@example.net`);
    fs.writeFileSync(many, `email\n${imported.join('\n')}\n`);
    expect((await admin(['subscribers', 'import', many])).code).toBe(0);
    const editor = await signUpAs(server, 'Paging Editor', 'editor', { verified: true });
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `q=example.net${cursor === null ? '' : `&cursor=${cursor}`}`;
      const response = await fetch(`${server.url}/api/subscribers?${query}`, {
        headers: { authorization: `Bearer ${editor.idToken}` },
      });
      expect(response.status).toBe(200);
      const page = (await response.json()) as { subscribers: { email: string }[]; nextCursor: string | null };
      sizes.push(page.subscribers.length);
      seen.push(...page.subscribers.map((subscriber) => subscriber.email));
      cursor = page.nextCursor;
    } while (cursor !== null && sizes.length < 5);
    expect(sizes).toEqual([50, 50, 20]);
    expect(seen).toEqual(imported);
  });
});
