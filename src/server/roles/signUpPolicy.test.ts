import { deleteApp, initializeApp, type FirebaseApp } from '@firebase/app';
import { createUserWithEmailAndPassword } from '@firebase/auth';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlesApi, sampleArticle, signUp } from '../../../test/support/articlesTestClient.ts';
import { identityClient, protocolError, uniqueEmail } from '../../../test/support/identityTestClient.ts';
import { setRole } from '../../../test/support/operatorActions.ts';
import { startSmtpSink, type SmtpSink } from '../../../test/support/smtpSink.ts';
import { startTestApp, type TestApp } from '../../../test/support/testApp.ts';
import { contractDatabases, type DialectCase } from '../../../test/support/testDatabases.ts';
import type { Role } from '../../shared/roles.ts';
import { passwordHasher } from '../identity/core/passwords/passwordHashing.ts';
import { authAgainst } from '../../../test/support/firebaseSdk.ts';

const userCount = async (server: TestApp) =>
  Number(
    (
      await server.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

let operatorCount = 0;

/**
 * An account made outside sign-up, as the Firebase import makes them (a row with a password
 * hash), given `role` the operator's way; signed in.
 */
async function operatorAccount(server: TestApp, role: Role, email = `operator-${++operatorCount}@example.com`) {
  const now = Date.now();
  await server.database.db
    .insertInto('users')
    .values({
      id: `operator-${email}`,
      email,
      password_hash: await passwordHasher.hash('secret-boss-1'),
      display_name: 'Operator made',
      photo_url: null,
      email_verified: 0,
      disabled: 0,
      created_at: now,
      last_login_at: null,
      password_updated_at: now,
      role: 'author',
      valid_since: now,
    })
    .execute();
  if (role !== 'author') await setRole(server, email, role);
  const signedIn = await identityClient(server.url).signIn(email, 'secret-boss-1');
  expect(signedIn.status).toBe(200);
  return { idToken: signedIn.body.idToken as string };
}

/** An owner made by the operator, and a fresh invitation code of theirs for `role`. */
async function invitationCode(server: TestApp, role: string): Promise<string> {
  const owner = await signUp(server.url, 'Owner');
  await setRole(server, owner.email, 'owner');
  const made = await articlesApi(server.url).request('POST', '/invitations', { token: owner.idToken, json: { role } });
  expect(made.status).toBe(201);
  return new URL(made.body.url).searchParams.get('invite')!;
}

async function withServer(
  dialectCase: DialectCase,
  env: Record<string, string>,
  run: (server: TestApp) => Promise<void>,
) {
  const server = await startTestApp(dialectCase, env);
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

// docs/product.md, Sign-up policy: SIGNUP, NEW_ACCOUNT_ROLE, OWNER_EMAIL.
describe.each(contractDatabases())('the sign-up policy on $dialect', (dialectCase) => {
  it('SIGNUP=closed refuses every sign-up, invitation or not, and creates nothing', async () => {
    await withServer(dialectCase, { SIGNUP: 'closed' }, async (server) => {
      const client = identityClient(server.url);
      // Accounts come from the operator; one of them may still invite, but a closed door stays shut.
      const owner = await operatorAccount(server, 'owner');
      const made = await articlesApi(server.url).request('POST', '/invitations', {
        token: owner.idToken,
        json: { role: 'author' },
      });
      expect(made.status).toBe(201);
      const code = new URL(made.body.url).searchParams.get('invite')!;
      const before = await userCount(server);
      expect((await client.signUp(uniqueEmail(), 'secret-1')).body).toEqual(
        protocolError('ADMIN_ONLY_OPERATION : SIGNUP_CLOSED'),
      );
      expect((await client.signUp(uniqueEmail(), 'secret-1', { inviteCode: code })).body).toEqual(
        protocolError('ADMIN_ONLY_OPERATION : SIGNUP_CLOSED'),
      );
      expect(await userCount(server)).toBe(before);
      // The web app learns the policy from the shell's data block.
      const shell = await (await fetch(`${server.url}/signup`)).text();
      expect(shell).toContain('"signup":"closed"');
    });
  });

  it('SIGNUP=invite needs a valid invitation, which gives its role and is used up', async () => {
    await withServer(dialectCase, { SIGNUP: 'invite' }, async (server) => {
      const client = identityClient(server.url);
      const before = await userCount(server);
      expect((await client.signUp(uniqueEmail(), 'secret-1')).body).toEqual(
        protocolError('ADMIN_ONLY_OPERATION : INVITATION_REQUIRED'),
      );
      expect((await client.signUp(uniqueEmail(), 'secret-1', { inviteCode: 'made-up' })).body).toEqual(
        protocolError('ADMIN_ONLY_OPERATION : INVITATION_INVALID'),
      );
      expect(await userCount(server)).toBe(before);

      const owner = await operatorAccount(server, 'owner');
      const made = await articlesApi(server.url).request('POST', '/invitations', {
        token: owner.idToken,
        json: { role: 'contributor' },
      });
      const code = new URL(made.body.url).searchParams.get('invite')!;
      const invited = await client.signUp(uniqueEmail(), 'secret-1', { inviteCode: code });
      expect(invited.status).toBe(200);
      expect(decodeJwt(invited.body.idToken).role).toBe('contributor');
      expect((await client.signUp(uniqueEmail(), 'secret-1', { inviteCode: code })).body).toEqual(
        protocolError('ADMIN_ONLY_OPERATION : INVITATION_USED'),
      );
      expect((await fetch(`${server.url}/signup`).then((r) => r.text())).includes('"signup":"invite"')).toBe(true);
    });
  });

  it('NEW_ACCOUNT_ROLE=reader makes readers of open sign-ups; an invitation still gives its own role', async () => {
    await withServer(dialectCase, { NEW_ACCOUNT_ROLE: 'reader' }, async (server) => {
      const client = identityClient(server.url);
      const reader = await client.signUp(uniqueEmail(), 'secret-1');
      expect(decodeJwt(reader.body.idToken).role).toBe('reader');
      expect((await articlesApi(server.url).create(reader.body.idToken, sampleArticle())).status).toBe(403);
      const code = await invitationCode(server, 'author');
      const invited = await client.signUp(uniqueEmail(), 'secret-1', { inviteCode: code });
      expect(decodeJwt(invited.body.idToken).role).toBe('author');
    });
  });
});

describe.each(contractDatabases())('OWNER_EMAIL on $dialect', (dialectCase) => {
  let sink: SmtpSink;
  let server: TestApp;

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestApp(dialectCase, {
      SMTP_URL: sink.url,
      PUBLIC_URL: 'https://blog.example',
      OWNER_EMAIL: 'Boss@Example.com',
      SIGNUP: 'invite',
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('makes the account with that address owner when it claims the address: the link opened while signed in to it', async () => {
    const client = identityClient(server.url);
    // Invite-only: the would-be owner's account comes from the operator (an import).
    await operatorAccount(server, 'author', 'boss@example.com');
    const session = await client.signIn('boss@example.com', 'secret-boss-1');
    expect(decodeJwt(session.body.idToken).role).toBe('author');
    const again = sink.messages.length;
    await client.call('/v1/accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken: session.body.idToken });
    const verify = await sink.waitForMail('boss@example.com', { after: again, subject: /Verify/ });
    const code = /mode=verifyEmail&oobCode=([A-Za-z0-9_-]+)/.exec(verify.text)![1]!;
    // Opened by a mail app (no session): verified, but no role moves (decision 0551).
    expect((await client.call('/v1/accounts:update', { oobCode: code })).status).toBe(200);
    expect((await client.lookup(session.body.idToken)).body.users[0]).toMatchObject({
      emailVerified: true,
      customAttributes: '{"role":"author"}',
    });
    // Opened again in the browser signed in to the account: the address is claimed.
    const claimed = await client.call('/v1/accounts:update', { oobCode: code, idToken: session.body.idToken });
    expect(claimed.status).toBe(200);
    const lookup = await client.lookup(session.body.idToken);
    expect(lookup.body.users[0].customAttributes).toBe('{"role":"owner"}');
    // At once, with the token from before: owners manage members.
    const members = await articlesApi(server.url).request('GET', '/members', { token: session.body.idToken });
    expect(members.status).toBe(200);
    // The audit log has the promotion, by no one (the operator's setting), in its transaction.
    const audit = await articlesApi(server.url).request('GET', '/audit', { token: session.body.idToken });
    expect(audit.body.entries).toContainEqual(
      expect.objectContaining({
        actorUid: null,
        action: 'member.role',
        targetType: 'user',
        targetId: lookup.body.users[0].localId,
        detail: { from: 'author', to: 'owner' },
      }),
    );
  });
});

describe.each(contractDatabases())('the official Firebase Auth SDK with SIGNUP=closed on $dialect', (dialectCase) => {
  let server: TestApp;
  let firebaseApp: FirebaseApp;

  beforeAll(async () => {
    server = await startTestApp(dialectCase, { SIGNUP: 'closed' });
    firebaseApp = initializeApp({ apiKey: 'test-key', projectId: 'inkwell' }, `closed-${dialectCase.dialect}`);
  });
  afterAll(async () => {
    await deleteApp(firebaseApp);
    await server?.close();
  });

  it('fails createUserWithEmailAndPassword with auth/admin-restricted-operation', async () => {
    const auth = authAgainst(firebaseApp, server.url);
    const before = await userCount(server);
    const failure = await createUserWithEmailAndPassword(auth, uniqueEmail(), 'secret-1').then(
      () => undefined,
      (error: { code?: string }) => error.code,
    );
    expect(failure).toBe('auth/admin-restricted-operation');
    expect(auth.currentUser).toBeNull();
    expect(await userCount(server)).toBe(before);
  });
});
