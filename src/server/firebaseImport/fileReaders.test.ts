import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readArticlesFile } from './articlesFile.ts';
import { parseFirebaseDate } from './firebaseDates.ts';
import { parseHashConfig } from './hashConfigFile.ts';
import { ImportFileError } from './importFileError.ts';
import { readUsersFile } from './usersFile.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-fbi-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
function write(name: string, content: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const SIGNER = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==';
const params = { signerKey: Buffer.from(SIGNER, 'base64'), saltSeparator: Buffer.from([7]), rounds: 8, memCost: 14 };

describe('hash parameters', () => {
  it('reads the console text block and the JSON form alike', () => {
    const block = `hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: ${SIGNER},\n  base64_salt_separator: Bw==,\n  rounds: 8,\n  mem_cost: 14,\n}\n`;
    const json = JSON.stringify({
      algorithm: 'SCRYPT',
      base64_signer_key: SIGNER,
      base64_salt_separator: 'Bw==',
      rounds: 8,
      mem_cost: 14,
    });
    expect(parseHashConfig('h', block)).toEqual(params);
    expect(parseHashConfig('h', json)).toEqual(params);
  });

  it.each([
    [
      '{"algorithm":"SCRYPT","base64_salt_separator":"Bw==","rounds":8,"mem_cost":14}',
      'h: base64_signer_key is missing',
    ],
    [
      `{"algorithm":"SCRYPT","base64_signer_key":"${SIGNER}","base64_salt_separator":"Bw==","rounds":8,"mem_cost":16}`,
      'h: mem_cost must be a whole number from 1 to 15',
    ],
    [
      `{"algorithm":"SCRYPT","base64_signer_key":"${SIGNER}","base64_salt_separator":"Bw==","rounds":17,"mem_cost":14}`,
      'h: rounds must be a whole number from 1 to 16',
    ],
    [
      `{"algorithm":"BCRYPT","base64_signer_key":"${SIGNER}","base64_salt_separator":"Bw==","rounds":8,"mem_cost":14}`,
      'h: algorithm must be SCRYPT',
    ],
    ['{"algorithm": ', 'h: not valid JSON'],
    ['hash_config { rounds 8 }', 'h: cannot read the line "rounds 8"'],
  ])('refuses %s', (text, message) => {
    expect(() => parseHashConfig('h', text)).toThrow(ImportFileError);
    expect(() => parseHashConfig('h', text)).toThrow(message);
  });
});

describe('dates', () => {
  it('reads every form exports use, to the millisecond', () => {
    const ms = Date.UTC(2021, 4, 6, 7, 8, 9, 123);
    expect(parseFirebaseDate({ _seconds: ms / 1000 - 0.123, _nanoseconds: 123456789 })).toBe(ms);
    expect(parseFirebaseDate({ seconds: Math.floor(ms / 1000), nanoseconds: 123000000 })).toBe(ms);
    expect(parseFirebaseDate('2021-05-06T07:08:09.123Z')).toBe(ms);
    expect(parseFirebaseDate('2021-05-06T09:08:09.123+02:00')).toBe(ms);
    expect(parseFirebaseDate(ms)).toBe(ms);
    expect(parseFirebaseDate(String(ms))).toBe(ms);
  });

  it.each([[null], ['yesterday'], ['2021-05-06'], [{ seconds: 'x' }], [{ _seconds: 1, _nanoseconds: 2e9 }], [9e15]])(
    'has no date for %j',
    (value) => expect(parseFirebaseDate(value)).toBeUndefined(),
  );
});

describe('the users file', () => {
  it('keeps standard and URL-safe base64 alike and skips what Inkwell cannot take', async () => {
    const file = write('users.json', {
      users: [
        { localId: 'a', email: ' A@Example.COM ', passwordHash: 'ab+/', salt: 'cd==', createdAt: '1600000000123' },
        { localId: 'b', email: 'b@example.com', passwordHash: 'ab-_', salt: 'cd' },
        { localId: 'c', email: 'not an email' },
        { localId: 'd', phoneNumber: '+15555550100' },
        { localId: 'e', email: 'e@example.com', passwordHash: '!!', salt: 'cd==' },
      ],
    });
    const read = await readUsersFile(file, 42);
    expect(read.users.map((u) => [u.uid, u.email, u.createdAt])).toEqual([
      ['a', 'a@example.com', 1600000000123],
      ['b', 'b@example.com', 42],
    ]);
    expect(read.users[0]!.firebasePassword).toEqual(read.users[1]!.firebasePassword);
    expect(read.skipped).toEqual([
      { id: 'c', reason: 'invalid email address' },
      { id: 'd', reason: 'no email address' },
      { id: 'e', reason: 'password hash is not base64' },
    ]);
  });

  it.each([
    [{ accounts: [] }, 'no "users" list'],
    [{ users: [{ email: 'x@example.com' }] }, 'users[0] has no valid localId'],
    [{ users: ['x'] }, 'users[0] is not an object'],
  ])('refuses %j as a whole', async (content, problem) => {
    const file = write('bad-users.json', content);
    await expect(readUsersFile(file, 0)).rejects.toThrow(`${file}: ${problem}`);
  });
});

describe('the articles file', () => {
  const article = { image: 'https://example.com/a.png', title: ' Title ', description: 'Body', authorId: 'u1' };

  it('reads an array and an object keyed by document id alike', async () => {
    const date = { _seconds: 1600000000, _nanoseconds: 5000000 };
    const fromArray = await readArticlesFile(write('a1.json', [{ id: 'doc1DOC1doc1DOC1doc1', ...article, date }]));
    const fromObject = await readArticlesFile(write('a2.json', { doc1DOC1doc1DOC1doc1: { ...article, date } }));
    expect(fromArray).toEqual(fromObject);
    expect(fromArray.articles).toEqual([
      {
        id: 'doc1DOC1doc1DOC1doc1',
        image: article.image,
        title: 'Title',
        description: 'Body',
        authorId: 'u1',
        date: 1600000000005,
      },
    ]);
  });

  it('skips documents the API would refuse, with the reason', async () => {
    const read = await readArticlesFile(
      write('a3.json', {
        x1xxxxxxxxxxxxxxxxxx: { ...article, image: 'javascript:alert(1)', date: 0 },
        x2xxxxxxxxxxxxxxxxxx: { ...article, title: '', date: 0 },
        x3xxxxxxxxxxxxxxxxxx: { ...article },
        'x/4': { ...article, date: 0 },
      }),
    );
    expect(read.articles).toEqual([]);
    expect(read.skipped).toEqual([
      { id: 'x1xxxxxxxxxxxxxxxxxx', reason: 'Image URL must be an http:// or https:// address.' },
      { id: 'x2xxxxxxxxxxxxxxxxxx', reason: 'Title is required.' },
      { id: 'x3xxxxxxxxxxxxxxxxxx', reason: 'date is missing or not a date' },
      { id: 'x/4', reason: 'id is not 20 characters of A-Z, a-z and 0-9 (a Firestore generated id)' },
    ]);
  });

  // Review finding 6: a year-275760 article pinned itself to the top and broke the feed.
  it('skips an article dated before 1970 or more than a day ahead, with the reason', async () => {
    const now = Date.UTC(2026, 10, 25);
    const read = await readArticlesFile(
      write('a4.json', {
        early000000000000001: { ...article, date: '1969-12-31T23:59:59.999Z' },
        far00000000000000002: { ...article, date: 8.64e15 },
        ahead000000000000003: { ...article, date: now + 24 * 60 * 60 * 1000 + 1 },
        soon0000000000000004: { ...article, date: now + 24 * 60 * 60 * 1000 },
      }),
      now,
    );
    expect(read.articles.map((a) => a.id)).toEqual(['soon0000000000000004']);
    expect(read.skipped).toEqual([
      { id: 'early000000000000001', reason: 'date is before 1970' },
      { id: 'far00000000000000002', reason: 'date is more than a day in the future' },
      { id: 'ahead000000000000003', reason: 'date is more than a day in the future' },
    ]);
  });

  it('refuses a file that is not a collection', async () => {
    const file = write('a4.json', '"articles"');
    await expect(readArticlesFile(file)).rejects.toThrow(
      `${file}: not an array of articles or an object keyed by document id`,
    );
  });
});
