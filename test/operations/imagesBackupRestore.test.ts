import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseUploadedImageUrl, uploadedImageSrcset } from '../../src/shared/imageUrls.ts';
import { articlesApi, signUp } from '../support/articlesTestClient.ts';
import { databaseUrl } from '../support/adminRunner.ts';
import { restoreBackup, scratchInstallations, takeBackup } from '../support/operatorBackup.ts';
import { storageDatabases } from '../support/testDatabases.ts';
import { phonePhoto } from '../support/testImages.ts';

const PUBLIC_URL = 'http://inkwell.test';

// Uploaded images live in the database (docs/product.md, Rules): the operator's backup, taken and restored
// as docs/deploy.md says (the admin command's SQLite copy, or pg_dump and pg_restore), holds them.
describe.each(storageDatabases())('uploaded images in a backup, on $dialect', (dialectCase) => {
  const { tempDir, newDatabase, startServer } = scratchInstallations(dialectCase);

  it('brings every file of an uploaded image back, byte for byte', async () => {
    const live = await newDatabase();
    const env = { PUBLIC_URL, DATA_DIR: tempDir('live'), DATABASE_URL: databaseUrl(live.config) };
    const server = await startServer(env);
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

    const backup = await takeBackup(env, path.join(tempDir('backup'), 'inkwell.backup'));
    const restoredEnv = { PUBLIC_URL, ...(await restoreBackup(backup, { dataDir: tempDir('restored'), newDatabase })) };
    // The live server goes away: the restored one serves the image on its own.
    await server.stop();
    const restored = await startServer(restoredEnv);

    const back = await fetchAll(restored.url);
    expect(back.map((file) => file.status)).toEqual(files.map(() => 200));
    back.forEach((file, index) => expect(file.bytes.equals(original[index]!.bytes), files[index]).toBe(true));
    expect((await articlesApi(restored.url).get(created.body.id)).body.image).toBe(url);
  });
});
