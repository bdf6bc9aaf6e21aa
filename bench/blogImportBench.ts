/**
 * `npm run bench:import`: a generated Ghost export of 10,000 posts (about 3 KB of HTML each,
 * tags, two authors) imported into a fresh SQLite database by the admin command in its own
 * process; prints the time, the CPU time, the process's peak RSS and the machine's load
 * (DESIGN.md §9.5: within a minute, in bounded memory). POSTS=N sets the number of posts;
 * FORMAT=wordpress generates a WXR export of the same posts and runs import-wordpress.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ghostExport } from '../test/support/ghostExportFixture.ts';
import { wxrExport } from '../test/support/wxrFixture.ts';

const POSTS = Number(process.env.POSTS ?? 10_000);
const FORMAT = process.env.FORMAT === 'wordpress' ? 'wordpress' : 'ghost';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-import-bench-'));
const paragraph =
  '<p>The tide came in over the flats while the gulls argued about the <em>last</em> of the light; ' +
  'a <a href="https://example.com/notes">note</a> on the harbour wall said the ferry was late again.</p>';
const posts = Array.from({ length: POSTS }, (_, i) => ({
  id: `p${i}`,
  title: `Harbour diary, day ${i + 1}`,
  slug: `harbour-diary-${i + 1}`,
  html: `<h2>Day ${i + 1}</h2>${paragraph.repeat(12)}<ul><li>Wind: west</li><li>Boats out: ${i % 9}</li></ul>`,
  feature_image: 'https://images.example.com/cover.jpg',
  tags: [`t${i % 20}`, `t${(i + 7) % 20}`],
  author: i % 2 === 0 ? 'u1' : 'u2',
  published_at: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
}));
const tags = Array.from({ length: 20 }, (_, i) => ({ id: `t${i}`, name: `Topic ${i}`, slug: `topic-${i}` }));
const users = [
  { id: 'u1', name: 'Mara Quay', email: 'mara@example.com' },
  { id: 'u2', name: 'Tom Reed', email: 'tom@example.com' },
];
const file = path.join(dir, FORMAT === 'ghost' ? 'ghost.json' : 'wordpress.xml');
if (FORMAT === 'ghost') fs.writeFileSync(file, JSON.stringify(ghostExport(posts, users, tags)));
else {
  const logins = new Map([
    ['u1', 'mara'],
    ['u2', 'tom'],
  ]);
  const authors = users.map((user) => ({ login: logins.get(user.id)!, email: user.email, name: user.name }));
  const items = posts.map((post, i) => ({
    id: i + 1,
    title: post.title,
    slug: post.slug,
    content: post.html,
    creator: logins.get(post.author)!,
    dateGmt: post.published_at.slice(0, 19).replace('T', ' '),
    categories: [`Topic ${i % 20}`],
    tags: [`Topic ${(i + 7) % 20}`],
  }));
  fs.writeFileSync(file, wxrExport('https://old.example', authors, items));
}
const size = fs.statSync(file).size;

const started = Date.now();
const child = spawn(
  '/usr/bin/time',
  [
    '-f',
    '%M %U %S',
    process.execPath,
    path.join(import.meta.dirname, '../src/server/admin/adminCommand.ts'),
    `import-${FORMAT}`,
    file,
    // WordPress posts name no cover of their own here; Inkwell articles need one.
    ...(FORMAT === 'wordpress' ? ['--cover', 'https://images.example.com/cover.jpg'] : []),
  ],
  {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dir,
      ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}),
      ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let stdout = '';
let stderr = '';
child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
const code: number = await new Promise((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
const seconds = (Date.now() - started) / 1000;
const [peakKb, user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
console.log(stdout.split('\n')[0]);
// On a shared machine the wall time follows the load; the CPU time says what the import costs.
console.log(
  `${POSTS} ${FORMAT} posts, export ${(size / 1024 / 1024).toFixed(1)} MB: ${seconds.toFixed(1)} s ` +
    `(CPU ${(user! + system!).toFixed(1)} s), peak RSS ${(peakKb! / 1024).toFixed(0)} MB (exit ${code}); ` +
    `load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')} on ${os.availableParallelism()} cores`,
);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(code);
