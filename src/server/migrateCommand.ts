import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';

try {
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    const result = await migrateToLatest(database);
    const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? [];
    console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
