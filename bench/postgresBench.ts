import pg from 'pg';

/**
 * A throwaway PostgreSQL database for the bench, on the server named by BENCH_POSTGRES_URL
 * (or TEST_DATABASE_URL, which the tests use the same way): created empty, dropped afterwards.
 * Returns undefined when neither is set.
 */
export async function createBenchPostgres(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const serverUrl = process.env.BENCH_POSTGRES_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `inkwell_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
