import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityClient, protocolError } from '../../../test/support/identityTestClient.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases } from '../../../test/support/testDatabases.ts';

// Review finding 5: one anonymous client wrote about 300 challenge rows a second.
describe.each(contractDatabases())('passkeys:startSignIn limits on $dialect', (dialectCase) => {
  let server: TestApp;
  let client: ReturnType<typeof identityClient>;
  let offset = 0;

  beforeAll(async () => {
    server = await startTestApp(
      dialectCase,
      {
        PUBLIC_URL: 'https://blog.example',
        TRUST_PROXY: 'true',
        RATE_LIMIT_PASSKEY_SIGNIN_START_PER_IP: '3',
        PASSKEY_ANONYMOUS_CHALLENGES_MAX: '5',
      },
      { clock: () => Date.now() + offset },
    );
    client = identityClient(server.url);
  });
  afterAll(() => server.close());

  const start = (ip: string) => client.call('/v1/passkeys:startSignIn', {}, { headers: { 'x-forwarded-for': ip } });
  const liveChallenges = async () =>
    Number(
      (
        await server.database.db
          .selectFrom('passkey_challenges')
          .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('limits starts per client IP, caps live anonymous challenges, and frees the cap as they expire', async () => {
    for (let i = 0; i < 3; i++) expect((await start('203.0.113.1')).status).toBe(200);
    const limited = await start('203.0.113.1');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(protocolError('TOO_MANY_ATTEMPTS_TRY_LATER', 429));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await liveChallenges()).toBe(3);

    // Other clients still get in, until the live anonymous challenges reach the cap (5).
    expect((await start('203.0.113.2')).status).toBe(200);
    expect((await start('203.0.113.3')).status).toBe(200);
    const full = await start('203.0.113.4');
    expect(full.status).toBe(429);
    expect(full.body).toEqual(protocolError('TOO_MANY_ATTEMPTS_TRY_LATER', 429));
    expect(await liveChallenges()).toBe(5);

    // Five minutes on, the expired challenges are purged and a new client is served.
    offset += 5 * 60 * 1000 + 1000;
    expect((await start('203.0.113.4')).status).toBe(200);
    expect(await liveChallenges()).toBe(1);
  });
});
