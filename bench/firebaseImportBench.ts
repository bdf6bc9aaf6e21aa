/**
 * Times `npm run admin -- import-firebase` on a generated export of 100,000 users (each with a
 * Firebase password hash) and 10,000 articles, as an operator runs it: a fresh database, one
 * process. Usage: node bench/firebaseImportBench.ts [USERS] [DATABASE_URL]
 * (default 100000 and a fresh SQLite file in a temporary directory).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const userCount = Number(process.argv[2] ?? 100_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-import-bench-'));
const databaseUrl = process.argv[3] ?? `sqlite:${path.join(dir, 'inkwell.db')}`;

const created = Date.UTC(2020, 0, 1);
const users = Array.from({ length: userCount }, (_, i) => ({
  localId: `benchUid${String(i).padStart(20, '0')}`,
  email: `person${i}@example.com`,
  emailVerified: i % 2 === 0,
  passwordHash: randomBytes(64).toString('base64'),
  salt: randomBytes(12).toString('base64'),
  displayName: `Person ${i}`,
  createdAt: String(created + i),
  lastSignedInAt: String(created + i * 2),
  disabled: false,
}));
const articles = Object.fromEntries(
  Array.from({ length: Math.ceil(userCount / 10) }, (_, i) => [
    `benchArticle${String(i).padStart(8, '0')}`,
    {
      image: 'https://example.com/cover.jpg',
      title: `Article ${i}`,
      description: 'Imported text.',
      authorId: users[i % userCount]!.localId,
      date: { _seconds: 1600000000 + i, _nanoseconds: 0 },
    },
  ]),
);
fs.writeFileSync(path.join(dir, 'users.json'), JSON.stringify({ users }));
fs.writeFileSync(path.join(dir, 'articles.json'), JSON.stringify(articles));
fs.writeFileSync(
  path.join(dir, 'hash.json'),
  JSON.stringify({
    algorithm: 'SCRYPT',
    base64_signer_key: randomBytes(64).toString('base64'),
    base64_salt_separator: 'Bw==',
    rounds: 8,
    mem_cost: 14,
  }),
);

const adminFile = path.join(import.meta.dirname, '..', 'src', 'server', 'admin', 'adminCommand.ts');
const started = process.hrtime.bigint();
const run = spawnSync(
  process.execPath,
  [
    adminFile,
    'import-firebase',
    '--users',
    path.join(dir, 'users.json'),
    '--hash-config',
    path.join(dir, 'hash.json'),
    '--articles',
    path.join(dir, 'articles.json'),
    '--json',
  ],
  { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: dir }, encoding: 'utf8' },
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
fs.rmSync(dir, { recursive: true, force: true });
if (run.status !== 0) {
  console.error(run.stderr);
  process.exit(1);
}
console.log(run.stdout.trim());
console.log(`${userCount} users, ${Object.keys(articles).length} articles imported in ${seconds.toFixed(1)} s`);
