// The embedded SQLite store: one connection per process, schema migrations applied when it opens.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '@/lib/config';
import { migrations } from './migrations';

const connectionKey = Symbol.for('vovk-gateway.sqlite');
type GlobalWithDb = typeof globalThis & { [connectionKey]?: Database.Database };

function migrate(db: Database.Database): void {
  const applied = db.pragma('user_version', { simple: true }) as number;
  for (const [index, sql] of migrations.entries()) {
    const version = index + 1;
    if (version <= applied) continue;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
    })();
  }
}

/** The process-wide database connection, opened (and migrated) on first use. */
export function db(): Database.Database {
  const scope = globalThis as GlobalWithDb;
  if (!scope[connectionKey]) {
    const file = databaseFile();
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const connection = new Database(file);
    connection.pragma('journal_mode = WAL');
    connection.pragma('busy_timeout = 5000');
    connection.pragma('foreign_keys = ON');
    migrate(connection);
    scope[connectionKey] = connection;
  }
  return scope[connectionKey];
}
