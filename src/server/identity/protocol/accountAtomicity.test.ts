import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { storageDatabases } from '../../../../test/support/testDatabases.ts';
import { identityTestApp, protocolError, uniqueEmail } from '../../../../test/support/identityTestClient.ts';

type Table = 'identity_sessions' | 'identity_oob_codes';

/** Makes the real database refuse every new row of a table, the way a full disk or a lost connection would. */
async function failInserts(database: Database, table: Table): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql`create trigger refuse_inserts before insert on ${sql.table(table)}
      begin select raise(abort, 'insert refused by test'); end`.execute(database.db);
  } else {
    await sql`create function refuse_inserts() returns trigger language plpgsql as
      $$ begin raise exception 'insert refused by test'; end $$`.execute(database.db);
    await sql`create trigger refuse_inserts before insert on ${sql.table(table)}
      for each row execute function refuse_inserts()`.execute(database.db);
  }
}

async function allowInserts(database: Database, table: Table): Promise<void> {
  if (database.dialect === 'sqlite') {
    await sql`drop trigger refuse_inserts`.execute(database.db);
  } else {
    await sql`drop trigger refuse_inserts on ${sql.table(table)}`.execute(database.db);
    await sql`drop function refuse_inserts()`.execute(database.db);
  }
}

const failSessionInserts = (database: Database) => failInserts(database, 'identity_sessions');
const allowSessionInserts = (database: Database) => allowInserts(database, 'identity_sessions');

describe.each(storageDatabases())('no half-written accounts on $dialect', (dialectCase) => {
  const app = identityTestApp(dialectCase);

  it('a sign-up whose session cannot be stored leaves no account behind', async () => {
    const email = uniqueEmail();
    await failSessionInserts(app.server.database);
    try {
      const failed = await app.client.signUp(email, 'secret-1');
      expect(failed.status).toBe(500);
    } finally {
      await allowSessionInserts(app.server.database);
    }
    // The client was told sign-up failed, so the email must still be free.
    expect((await app.client.signIn(email, 'secret-1')).body).toEqual(protocolError('INVALID_LOGIN_CREDENTIALS'));
    expect((await app.client.signUp(email, 'secret-1')).status).toBe(200);
  });

  it('a sign-in whose session cannot be stored does not record a login', async () => {
    const email = uniqueEmail();
    const signUp = await app.client.signUp(email, 'secret-1');
    const before = (await app.client.lookup(signUp.body.idToken)).body.users[0].lastLoginAt;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await failSessionInserts(app.server.database);
    try {
      expect((await app.client.signIn(email, 'secret-1')).status).toBe(500);
    } finally {
      await allowSessionInserts(app.server.database);
    }
    expect((await app.client.lookup(signUp.body.idToken)).body.users[0].lastLoginAt).toBe(before);
  });

  it('a sign-up whose verification link cannot be stored still signs the person in', async () => {
    const email = uniqueEmail();
    await failInserts(app.server.database, 'identity_oob_codes');
    let signUp;
    try {
      signUp = await app.client.signUp(email, 'secret-1');
    } finally {
      await allowInserts(app.server.database, 'identity_oob_codes');
    }
    expect(signUp.status).toBe(200);
    expect((await app.client.lookup(signUp.body.idToken)).body.users[0]).toMatchObject({ email, emailVerified: false });
  });
});
