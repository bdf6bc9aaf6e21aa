import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, runLoad } from './load.ts';
import { cpuSeconds, saveResponse, startAppServer, startBareServer } from './processes.ts';
import { seedDatabase } from './seed.ts';

/**
 * `node bench/profileList.ts`: the cached list page under load, side by side with the bare
 * node:http server sending the same bytes (A/B rounds, medians), with the app's CPU profile
 * (`node --cpu-prof`) summarised by where its time goes. bench/README.md, "Profile of a cached list read".
 */
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 5);
/** PROFILE_CPU=0: the same A/B rounds with no profiler on either server (the budget's figure, bench.ts' list A/B). */
const PROFILING = process.env.PROFILE_CPU !== '0';
const profiled = (dir: string) => (PROFILING ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []);
const SECONDS = 3;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-profile-'));
const profileDir = path.join(workDir, 'profile');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives, shortened: the project's own files by path, packages by name. */
function placeOf(url: string): string {
  if (url === '') return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1)
    return url
      .slice(modules + 'node_modules/'.length)
      .split('/')
      .slice(0, 2)
      .join('/');
  if (url.startsWith('node:')) return url;
  return path.relative(process.cwd(), url.replace('file://', ''));
}

function summarise(file: string) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const total = [...self.values()].reduce((sum, value) => sum + value, 0);
  const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)');
  const busy = total - idle.reduce((sum, [, value]) => sum + value, 0);
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  for (const [id, time] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const place = placeOf(frame.url);
    const name = `${frame.functionName || '(anonymous)'} ${place}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + time);
    places.set(place, (places.get(place) ?? 0) + time);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, time]) => `  ${((time / busy) * 100).toFixed(1).padStart(5)} %  ${name}`);
  console.log(`\nCPU profile: ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s`);
  console.log('Self time by place (share of busy time):');
  console.log(top(places, 15).join('\n'));
  console.log('Self time by function:');
  console.log(top(functions, 25).join('\n'));
}

/** One load round, with the server's CPU time per request: what a busy machine cannot distort much. */
async function measuredRound(url: string, pid: number) {
  const before = cpuSeconds(pid);
  const result = await runLoad({ url, seconds: SECONDS });
  const cpuMicros = ((cpuSeconds(pid) - before) * 1e6) / result.requests;
  return { ...result, cpuMicros };
}

try {
  const dataDir = path.join(workDir, 'data');
  await seedDatabase({ dataDir, articles: 100 });
  const app = await startAppServer(dataDir, {}, profiled(profileDir));
  const appUrl = `${app.origin}/api/articles?limit=20`;
  // PROFILE_BEFORE=DIR: a checkout of the code before a change, built, run on a copy of the same
  // data and measured in the same rounds, so a shared machine's swings hit both alike.
  const beforeRoot = process.env.PROFILE_BEFORE;
  let before: Awaited<ReturnType<typeof startAppServer>> | undefined;
  if (beforeRoot !== undefined) {
    const beforeData = path.join(workDir, 'data-before');
    fs.cpSync(dataDir, beforeData, { recursive: true });
    // Profiled too: the profiler's own cost must weigh on both alike.
    before = await startAppServer(
      beforeData,
      {},
      profiled(path.join(workDir, 'profile-before')),
      path.resolve(beforeRoot),
    );
  }
  const beforeUrl = before && `${before.origin}/api/articles?limit=20`;
  const beforeCpu: number[] = [];
  const beforeRatios: number[] = [];
  const responseFile = path.join(workDir, 'response.json');
  await saveResponse(appUrl, responseFile);
  const bare = await startBareServer(responseFile);
  const bareUrl = `${bare.origin}/api/articles?limit=20`;
  await runLoad({ url: appUrl, seconds: 1 });
  await runLoad({ url: bareUrl, seconds: 1 });
  if (beforeUrl) await runLoad({ url: beforeUrl, seconds: 1 });
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const appRates: number[] = [];
  const bareRates: number[] = [];
  const appCpu: number[] = [];
  const bareCpu: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const a = await measuredRound(appUrl, app.child.pid!);
    const b = await measuredRound(bareUrl, bare.child.pid!);
    if (before && beforeUrl) {
      const c = await measuredRound(beforeUrl, before.child.pid!);
      beforeCpu.push(c.cpuMicros);
      beforeRatios.push(b.cpuMicros / c.cpuMicros);
      console.log(`         before: ${c.requestsPerSecond.toFixed(0)} req/s ${c.cpuMicros.toFixed(0)} µs CPU/request`);
    }
    appRates.push(a.requestsPerSecond);
    bareRates.push(b.requestsPerSecond);
    appCpu.push(a.cpuMicros);
    bareCpu.push(b.cpuMicros);
    ratios.push(a.requestsPerSecond / b.requestsPerSecond);
    cpuRatios.push(b.cpuMicros / a.cpuMicros);
    console.log(
      `round ${round + 1}: Inkwell ${a.requestsPerSecond.toFixed(0)} req/s ${a.cpuMicros.toFixed(0)} µs CPU/request, ` +
        `bare ${b.requestsPerSecond.toFixed(0)} req/s ${b.cpuMicros.toFixed(0)} µs CPU/request`,
    );
  }
  console.log(
    `median: Inkwell ${median(appRates).toFixed(0)} req/s, bare ${median(bareRates).toFixed(0)} req/s; ` +
      `median throughput ratio ${(median(ratios) * 100).toFixed(0)} %\n` +
      `        CPU per request: Inkwell ${median(appCpu).toFixed(0)} µs, bare ${median(bareCpu).toFixed(0)} µs; ` +
      `median ratio (bare/Inkwell) ${(median(cpuRatios) * 100).toFixed(0)} %\n` +
      `        (${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at the end)`,
  );
  if (before) {
    console.log(
      `        before the change: ${median(beforeCpu).toFixed(0)} µs CPU/request; median ratio (bare/before) ${(median(beforeRatios) * 100).toFixed(0)} %`,
    );
    await before.stop();
  }
  await bare.stop();
  await app.stop();
  if (PROFILING) {
    const [profile] = fs.readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
    if (profile === undefined) throw new Error('the server wrote no CPU profile');
    summarise(path.join(profileDir, profile));
    if (process.env.PROFILE_KEEP) fs.copyFileSync(path.join(profileDir, profile), process.env.PROFILE_KEEP);
  }
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}
