// Throwaway databases for tests: a SQLite file in a temp dir, or a fresh database on the test PostgreSQL cluster.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export type Backend = 'sqlite' | 'postgres';

/** A database of one backend: where it is, and how to remove it. */
export interface TestDatabase {
  backend: Backend;
  /** What the store takes: `databaseUrl` for PostgreSQL, `databaseFile` for SQLite. */
  options: { databaseUrl?: string; databaseFile: string };
  /** The same as environment variables for a server. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** The admin URL of the test PostgreSQL cluster; the project's test script starts one (scripts/lib.sh ensure_postgres). */
function testPostgresUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      'TEST_DATABASE_URL is not set: run `npm test`, or `source scripts/lib.sh && ensure_postgres` first (it starts a throwaway cluster)',
    );
  }
  return url;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testPostgresUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(backend: Backend): Promise<TestDatabase> {
  if (backend === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-test-'));
    const databaseFile = path.join(dir, 'gateway.db');
    return {
      backend,
      options: { databaseFile },
      env: { DATABASE_FILE: databaseFile },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `gateway_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(testPostgresUrl());
  url.pathname = `/${name}`;
  return {
    backend,
    options: { databaseUrl: url.href, databaseFile: ':unused:' },
    env: { DATABASE_URL: url.href },
    drop: () => adminQuery(`DROP DATABASE ${name} WITH (FORCE)`),
  };
}
