// The gateway's database: one SQL driver per process, opened from the settings and shared by every route bundle, by
// the gateway (its `gateway_` tables) and by the app (its own tables, with its own migration set).
import 'server-only';
import { config } from '../config.js';
import type { SqlDriver } from './driver.js';
import { GATEWAY_MIGRATIONS } from './gateway-migrations.js';
import { PostgresDriver } from './postgres.js';
import { SqliteDriver } from './sqlite.js';

/** A new driver: PostgreSQL when `databaseUrl` is given, else the SQLite file (tests; a server uses `database()`). */
export function openDatabase({ databaseUrl, databaseFile }: { databaseUrl?: string; databaseFile: string }): SqlDriver {
  return databaseUrl ? new PostgresDriver(databaseUrl) : new SqliteDriver(databaseFile);
}

const databaseKey = Symbol.for('vovk-gateway.database');
type GlobalWithDatabase = typeof globalThis & { [databaseKey]?: SqlDriver };

/**
 * The process-wide database, opened on first use from the gateway's settings: PostgreSQL at `databaseUrl` when set,
 * else the SQLite file `databaseFile` (default `data/gateway.db` in the working directory). An app keeps its tables
 * there through this same driver (two connections to one SQLite file in one process would block each other).
 */
export function database(): SqlDriver {
  const scope = globalThis as GlobalWithDatabase;
  scope[databaseKey] ??= openDatabase(config());
  return scope[databaseKey];
}

/**
 * Applies the gateway's own migrations (its `gateway_` tables) to `driver` (default: `database()`), once per driver;
 * the gateway does on first use too, a server calls it at start.
 */
export function migrateGateway(driver: SqlDriver = database()): Promise<void> {
  return driver.migrate(GATEWAY_MIGRATIONS);
}
