// The migration sets sharing one database, on both backends: the gateway's creates only `gateway_` tables, each set
// counts its own versions, and a database of the releases before the split (one list for the app's tables and the
// gateway's) keeps its users and tasks, its old gateway tables left as they were.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { migrateGateway, openDatabase } from '@gateway/db/database';
import type { DataChange, SqlDriver } from '@gateway/db/driver';
import { GATEWAY_MIGRATIONS } from '@gateway/db/gateway-migrations';
import { REFERENCE_APP_MIGRATIONS } from '@/lib/migrations';
import { Store } from '@/lib/store';
import { type Backend, createTestDatabase, type TestDatabase } from '../support/databases';
import { writeLegacyDatabase } from '../support/legacy-migrations';

/** SQL listing the database's own tables, indexes and sequences (SQLite's internal `sqlite_…` ones aside). */
const RELATIONS: Record<Backend, string> = {
  sqlite: "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name",
  postgres: `SELECT relname AS name FROM pg_class JOIN pg_namespace ON pg_namespace.oid = relnamespace
             WHERE nspname = current_schema() AND relkind IN ('r', 'i', 'S') ORDER BY relname`,
};

/** The rows of one table, all columns, by id. */
const rowsOf = (driver: SqlDriver, table: string) => driver.read((query) => query(`SELECT * FROM ${table} ORDER BY id`));

describe.each<Backend>(['sqlite', 'postgres'])('migration sets on %s', (backend) => {
  let database: TestDatabase;
  const opened: SqlDriver[] = [];
  /** A driver on the test database: what one server instance opens. */
  const open = () => {
    const driver = openDatabase(database.options);
    opened.push(driver);
    return driver;
  };
  const relations = async (driver: SqlDriver) =>
    (await driver.read((query) => query<{ name: string }>(RELATIONS[backend]))).map((row) => row.name);
  const versions = (driver: SqlDriver) => driver.read((query) => query('SELECT name, version FROM gateway_migrations ORDER BY name'));

  beforeEach(async () => {
    database = await createTestDatabase(backend);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((driver) => driver.close()));
    await database.drop();
  });

  test("the gateway's set alone creates only gateway_ tables (their indexes and sequences named alike)", async () => {
    const driver = open();
    await migrateGateway(driver);
    const names = await relations(driver);
    expect(names.filter((name) => !name.startsWith('gateway_'))).toEqual([]);
    const tables = ['gateway_jobs', 'gateway_mcp_events', 'gateway_migrations'];
    if (backend === 'postgres') tables.push('gateway_mcp_instances', 'gateway_mcp_relay_payloads', 'gateway_mcp_sessions');
    expect(names).toEqual(expect.arrayContaining(tables));
    if (backend === 'postgres') {
      // No function or trigger either: the gateway's set watches no table.
      const functions = await driver.read((query) =>
        query("SELECT proname FROM pg_proc JOIN pg_namespace ON pg_namespace.oid = pronamespace WHERE nspname = current_schema()"),
      );
      expect(functions).toEqual([]);
    }
  });

  test('each set counts its own versions; instances starting together apply each once; reopening applies nothing', async () => {
    const instances = [open(), open(), open()];
    await Promise.all(instances.flatMap((driver) => [migrateGateway(driver), new Store(driver).ready()]));
    const expected = [
      { name: REFERENCE_APP_MIGRATIONS.name, version: REFERENCE_APP_MIGRATIONS[backend].length },
      { name: GATEWAY_MIGRATIONS.name, version: GATEWAY_MIGRATIONS[backend].length },
    ];
    expect(await versions(instances[0])).toEqual(expected);
    const store = new Store(instances[0]);
    for (const task of await store.listTasks()) await store.deleteTask(task.id);
    const reopened = open();
    await Promise.all([migrateGateway(reopened), new Store(reopened).ready()]);
    expect(await versions(reopened)).toEqual(expected);
    expect(await new Store(reopened).listTasks()).toEqual([]);
  });

  test('a database of the single migration list keeps its users and tasks; its old gateway tables stay as they were', async () => {
    await writeLegacyDatabase(
      database,
      `INSERT INTO users (name, email, role, created_at) VALUES ('Katherine Johnson', 'katherine@example.com', 'member', '2026-05-01T00:00:00.000Z');
       UPDATE tasks SET title = 'Release notes, written', created_by = 'ada-subject' WHERE title = 'Write the release notes';
       INSERT INTO jobs (id, owner, door, tool, input, status, instance, heartbeat_at, created_at, updated_at, ttl_ms)
         VALUES ('old-job', 'alice', 'rest', 'POST /api/old', 'null', 'completed', 'gone', 0, 0, 0, 60000);`,
    );
    const driver = open();
    const before = { users: await rowsOf(driver, 'users'), tasks: await rowsOf(driver, 'tasks'), jobs: await rowsOf(driver, 'jobs') };
    const store = new Store(driver);
    await Promise.all([migrateGateway(driver), store.ready()]);

    expect(await rowsOf(driver, 'users')).toEqual(before.users);
    expect(await rowsOf(driver, 'tasks')).toEqual(before.tasks);
    expect(await rowsOf(driver, 'jobs')).toEqual(before.jobs);
    expect(before.users.map((user) => user.name)).toContain('Katherine Johnson');
    expect(before.tasks).toHaveLength(4);
    expect(await store.listTasks({ status: 'todo' })).toMatchObject([{}, { title: 'Release notes, written', createdBy: 'ada-subject' }]);
    expect(await rowsOf(driver, 'gateway_jobs')).toEqual([]);
    expect(await relations(driver)).toEqual(expect.arrayContaining(['jobs', 'mcp_events', 'gateway_jobs', 'gateway_mcp_events']));

    // The store works on the old tables, and its changes are heard once each, naming their rows.
    const created = await store.createTask({ title: 'After the split', assigneeId: 4, createdBy: 'katherine-subject' });
    expect(created).toMatchObject({ status: 'todo', position: 2, assigneeId: 4, createdBy: 'katherine-subject' });
    const heard: DataChange[] = [];
    store.onChange((changes) => heard.push(...changes));
    // Listening starts asynchronously (PostgreSQL's LISTEN): writes until one is heard show that it is under way.
    await expect.poll(async () => (await store.updateTask(created.id, { description: 'warm-up' }), heard.length)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    heard.length = 0;
    await store.updateUser(4, { role: 'admin' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([{ table: 'users', ids: [4] }]);
    if (backend === 'postgres') {
      const oldFunction = await driver.read((query) => query("SELECT proname FROM pg_proc WHERE proname = 'notify_board_change'"));
      expect(oldFunction).toEqual([]);
    }
  });
});
