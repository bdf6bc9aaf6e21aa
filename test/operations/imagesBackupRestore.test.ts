import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseUploadedImageUrl, uploadedImageSrcset } from '../../src/shared/imageUrls.ts';
import { articlesApi, signUp } from '../support/articlesTestClient.ts';
import { databaseUrl, runAdmin } from '../support/adminProcess.ts';
import { startServerProcess, type ServerProcess } from '../support/serverProcess.ts';
import { dialectCases, type TestDatabase } from '../support/testDatabases.ts';
import { phonePhoto } from '../support/testImages.ts';

const run = promisify(execFile);
const PUBLIC_URL = 'http://inkwell.test';

// Uploaded images live in the database (DESIGN.md §4): the operator's backup, taken and restored
// as docs/deploy.md says (the admin command's SQLite copy, or pg_dump and pg_restore), holds them.
describe.each(dialectCases())('uploaded images in a backup, on $dialect', (dialectCase) => {
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  const servers: ServerProcess[] = [];
  const tempDir = (label: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `inkwell-${label}-`));
    dirs.push(dir);
    return dir;
  };
  const newDatabase = async () => {
    const database = await dialectCase.create();
    databases.push(database);
    return database;
  };

  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const database of databases) await database.dispose();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('brings every file of an uploaded image back, byte for byte', async () => {
    const live = await newDatabase();
    const env = { PUBLIC_URL, DATA_DIR: tempDir('live'), DATABASE_URL: databaseUrl(live.config) };
    const server = await startServerProcess(env);
    servers.push(server);
    const author = await signUp(server.url, 'Photographer');
    const uploaded = await fetch(`${server.url}/api/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${author.idToken}`, 'content-type': 'image/jpeg' },
      body: new Uint8Array(await phonePhoto()),
    });
    expect(uploaded.status).toBe(201);
    const { url } = (await uploaded.json()) as { url: string };
    const created = await articlesApi(server.url).create(author.idToken, {
      image: url,
      title: 'Backed up',
      description: 'With its picture.',
    });
    expect(created.status).toBe(201);
    const files = [
      url,
      ...uploadedImageSrcset(parseUploadedImageUrl(url)!)
        .split(', ')
        .map((c) => c.split(' ')[0]!),
    ];
    const fetchAll = async (origin: string) =>
      Promise.all(
        files.map(async (file) => {
          const response = await fetch(file.replace(PUBLIC_URL, origin));
          return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
        }),
      );
    const original = await fetchAll(server.url);
    expect(original.map((file) => file.status)).toEqual(files.map(() => 200));

    const backupFile = path.join(tempDir('backup'), 'inkwell.backup');
    const backup = await runAdmin(['backup', backupFile, '--json'], env);
    expect(backup.code, backup.stderr).toBe(0);
    const printed = JSON.parse(backup.stdout) as { dialect: string; command?: string };
    const restoredEnv: Record<string, string> = { PUBLIC_URL, DATA_DIR: tempDir('restored') };
    if (printed.dialect === 'postgres') {
      const args = [...printed.command!.matchAll(/--(\w+)=(?:'([^']*)'|(\S+))/g)].map(
        ([, name, quoted, bare]) => `--${name}=${quoted ?? bare}`,
      );
      await run('pg_dump', args);
      const target = await newDatabase();
      await run('pg_restore', ['--no-owner', `--dbname=${databaseUrl(target.config)}`, backupFile]);
      restoredEnv.DATABASE_URL = databaseUrl(target.config);
    } else {
      fs.copyFileSync(backupFile, path.join(restoredEnv.DATA_DIR!, 'inkwell.db'));
    }
    // The live server goes away: the restored one serves the image on its own.
    await server.stop();
    const restored = await startServerProcess(restoredEnv);
    servers.push(restored);

    const back = await fetchAll(restored.url);
    expect(back.map((file) => file.status)).toEqual(files.map(() => 200));
    back.forEach((file, index) => expect(file.bytes.equals(original[index]!.bytes), files[index]).toBe(true));
    expect((await articlesApi(restored.url).get(created.body.id)).body.image).toBe(url);
  });
});
