import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ensureWebBuild } from '../src/server/web/webBuild.ts';
import { phonePhoto } from './phonePhoto.ts';
import { startAppServer } from './processes.ts';
import { publishArticle, signUpWriter, uploadImage } from './writer.ts';

// `node bench/ghostSideBySide.ts`: Lighthouse mobile largest contentful paint of Inkwell's
// article page beside Ghost's post page, the same 4000×2667 cover (made here with sharp)
// uploaded to both, the same text. Rounds alternate which site goes first, so a machine that
// slows down or speeds up mid-run weighs on both; each side is judged on its median of ROUNDS.
// Ghost is not a dependency of this repository: start one yourself (bench/README.md, "Beside
// Ghost") and point GHOST_URL at it; this script sets it up (owner account) on first use.

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const GHOST_URL = (process.env.GHOST_URL ?? 'http://127.0.0.1:2368').replace(/\/$/, '');
// Ghost refuses passwords built from the email, the site's name or common words.
const GHOST_OWNER = { email: 'owner@example.com', password: 'kV7#pQ2!zR9mW4xT-lighthouse' };
const COVER = { width: 4000, height: 2667 };
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const TITLE = 'A morning on the harbour wall';
const PARAGRAPHS = [
  'The boats come in before seven, and by the time the light reaches the wall the first crates are already stacked by the ice house.',
  'Nobody hurries. The gulls know the order of things better than the visitors do, and the man with the blue van has been selling the same three kinds of fish for thirty years.',
  'By nine it is over: the wall is hosed down, the van is gone, and the only sign that anything happened is the smell of salt and diesel that lingers until the tide turns.',
];

/** Ghost's Admin API with a staff session cookie (Ghost checks Origin on session calls). */
async function ghostAdmin(): Promise<(pathname: string, init?: RequestInit) => Promise<Response>> {
  const headers = { origin: GHOST_URL, 'content-type': 'application/json' };
  const setup = await fetch(`${GHOST_URL}/ghost/api/admin/authentication/setup/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ setup: [{ name: 'Bench Owner', ...GHOST_OWNER, blogTitle: 'Ghost beside Inkwell' }] }),
  });
  // Already set up answers 403: the owner signs in below.
  if (!setup.ok && setup.status !== 403) throw new Error(`Ghost setup failed: ${setup.status} ${await setup.text()}`);
  const session = await fetch(`${GHOST_URL}/ghost/api/admin/session/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: GHOST_OWNER.email, password: GHOST_OWNER.password }),
  });
  if (!session.ok) throw new Error(`Ghost sign-in failed: ${session.status} ${await session.text()}`);
  const cookie = session.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return (pathname, init = {}) =>
    fetch(`${GHOST_URL}/ghost/api/admin/${pathname}`, {
      ...init,
      headers: { origin: GHOST_URL, cookie, ...(init.headers as Record<string, string> | undefined) },
    });
}

/** Uploads the cover through Ghost's image upload and publishes a post with it; returns the post's URL. */
async function publishOnGhost(cover: Buffer): Promise<string> {
  const admin = await ghostAdmin();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(cover)], { type: 'image/jpeg' }), 'cover.jpg');
  form.append('purpose', 'image');
  const uploaded = await admin('images/upload/', { method: 'POST', body: form });
  if (!uploaded.ok) throw new Error(`Ghost upload failed: ${uploaded.status} ${await uploaded.text()}`);
  const image = ((await uploaded.json()) as { images: { url: string }[] }).images[0]!.url;
  const created = await admin('posts/?source=html', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      posts: [
        {
          title: TITLE,
          html: PARAGRAPHS.map((text) => `<p>${text}</p>`).join(''),
          feature_image: image,
          status: 'published',
        },
      ],
    }),
  });
  if (!created.ok) throw new Error(`Ghost post failed: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { posts: { url: string }[] }).posts[0]!.url;
}

interface Measurement {
  lcp: number;
  fcp: number;
  element: string;
}

interface NodeItem {
  type: 'node';
  nodeLabel?: string;
  selector?: string;
}

/** The first element a Lighthouse details object names, however deep. */
function firstNode(value: unknown): NodeItem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if ((value as { type?: unknown }).type === 'node') return value as NodeItem;
  for (const child of Object.values(value)) {
    const found = firstNode(child);
    if (found) return found;
  }
  return undefined;
}

async function measure(url: string, port: number): Promise<Measurement> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, { port, logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (result.lhr.runtimeError && attempt < 3) continue;
    const audits = result.lhr.audits;
    // Lighthouse 13 names the largest element in its LCP breakdown insight, as a "node" item.
    const node = firstNode(audits['lcp-breakdown-insight']?.details);
    return {
      lcp: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
      fcp: Math.round(audits['first-contentful-paint']?.numericValue ?? NaN),
      element: node ? `${node.nodeLabel ?? ''} (${node.selector ?? '?'})`.slice(0, 90) : '?',
    };
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  await ensureWebBuild((line) => console.log(line));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-beside-ghost-'));
  const server = await startAppServer(dataDir);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const cover = await phonePhoto(COVER.width, COVER.height);
    const writer = await signUpWriter(server.origin);
    const articleId = await publishArticle(server.origin, writer, {
      image: await uploadImage(server.origin, writer, cover),
      title: TITLE,
      description: PARAGRAPHS.join('\n\n'),
    });
    const sides = { inkwell: `${server.origin}/article/${articleId}`, ghost: await publishOnGhost(cover) };
    console.log(`cover ${COVER.width}×${COVER.height}, ${Math.round(cover.length / 1024)} KB JPEG`);
    console.log(`Inkwell ${sides.inkwell}\nGhost   ${sides.ghost}`);
    const results: Record<keyof typeof sides, Measurement[]> = { inkwell: [], ghost: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      const order: (keyof typeof sides)[] = round % 2 === 1 ? ['inkwell', 'ghost'] : ['ghost', 'inkwell'];
      for (const side of order) {
        const run = await measure(sides[side], chrome.port);
        results[side].push(run);
        console.log(
          `round ${round} ${side.padEnd(7)} LCP ${run.lcp} ms, FCP ${run.fcp} ms, LCP element ${run.element}`,
        );
      }
    }
    const inkwell = median(results.inkwell.map((run) => run.lcp));
    const ghost = median(results.ghost.map((run) => run.lcp));
    console.log(
      `\nLighthouse mobile LCP, median of ${ROUNDS} alternating rounds, ${new Date().toISOString()}, ` +
        `${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(1)}:\n` +
        `  Inkwell article page ${inkwell} ms (FCP ${median(results.inkwell.map((run) => run.fcp))} ms)\n` +
        `  Ghost post page      ${ghost} ms (FCP ${median(results.ghost.map((run) => run.fcp))} ms)\n` +
        `  Inkwell / Ghost      ${(inkwell / ghost).toFixed(2)}`,
    );
  } finally {
    chrome.kill();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
