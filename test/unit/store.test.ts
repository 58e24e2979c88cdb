// The store on both backends (SQLite, PostgreSQL): migrations, CRUD, positions, imports, concurrent writers, the change feed.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDatabase } from '@gateway/db/database';
import type { DataChange, Query } from '@gateway/db/driver';
import { REFERENCE_APP_MIGRATIONS } from '@/lib/migrations';
import { Store, StoreError, TASK_STATUSES, type TaskRecord } from '@/lib/store';
import { runInRequestContext } from '@gateway/request-context';
import { commitPoint, WorkCancelled } from '@gateway/long-work/current-work';
import { type Backend, createTestDatabase, type TestDatabase } from '../support/databases';
import { legacySqliteMigrations } from '../support/legacy-migrations';

const demoUsers = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin', createdAt: '2026-01-05T09:00:00.000Z' },
  { id: 2, name: 'Alan Turing', email: 'alan@example.com', role: 'member', createdAt: '2026-02-11T10:30:00.000Z' },
  { id: 3, name: 'Grace Hopper', email: 'grace@example.com', role: 'member', createdAt: '2026-03-20T14:15:00.000Z' },
];

/** The demo tasks a new database holds (seeded by the app's migration set), in board order. */
const demoTasks = [
  { title: 'Try the board in an MCP client', status: 'todo', position: 0, assigneeId: 1 },
  { title: 'Write the release notes', description: '', status: 'todo', position: 1, assigneeId: null },
  { title: 'Review the OAuth sign-in', status: 'in_progress', position: 0, assigneeId: 3 },
  { title: 'Set up the MCP gateway', status: 'done', position: 0, assigneeId: 2 },
];

/** Deletes every task, for the tests that start from an empty board. */
async function emptyBoard(store: Store): Promise<void> {
  for (const task of await store.listTasks()) await store.deleteTask(task.id);
}

/** Each column's task ids, top first, and a check that its positions are exactly 0…n-1. */
function columnsOf(tasks: TaskRecord[]): Record<string, number[]> {
  return Object.fromEntries(
    TASK_STATUSES.map((status) => {
      const column = tasks.filter((task) => task.status === status);
      expect(column.map((task) => task.position), status).toEqual(column.map((_, index) => index));
      return [status, column.map((task) => task.id)];
    }),
  );
}

describe.each<Backend>(['sqlite', 'postgres'])('store on %s', (backend) => {
  let database: TestDatabase;
  const opened: Store[] = [];
  /** Another store on the same database: what a second server instance (or process) would open. */
  const open = () => {
    const store = new Store(openDatabase(database.options));
    opened.push(store);
    return store;
  };
  let store: Store;

  beforeEach(async () => {
    database = await createTestDatabase(backend);
    store = open();
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((each) => each.close()));
    await database.drop();
  });

  describe('migrations', () => {
    test('a new database gets the schema, the three demo users and the demo tasks', async () => {
      expect(await store.listUsers()).toEqual(demoUsers);
      const tasks = await store.listTasks();
      expect(tasks).toMatchObject(demoTasks);
      expect(tasks).toHaveLength(demoTasks.length);
      columnsOf(tasks);
      expect(tasks.every((task) => task.createdAt === '2026-04-01T09:00:00.000Z' && task.createdBy === null)).toBe(true);
    });

    test('reopening applies nothing twice: data stays, demo users and tasks are not seeded again', async () => {
      await emptyBoard(store);
      await store.createTask({ title: 'Survives a restart' });
      await store.close();
      opened.splice(0);
      const reopened = open();
      expect(await reopened.listUsers()).toHaveLength(3);
      expect((await reopened.listTasks()).map((task) => task.title)).toEqual(['Survives a restart']);
    });

    test('instances starting at the same time on a new database migrate it once', async () => {
      const stores = [store, open(), open(), open()];
      await Promise.all(stores.map((each) => each.ready()));
      expect(await stores[3].listUsers()).toEqual(demoUsers);
    });

    if (backend === 'sqlite') {
      test('a database of an older release (users only, user_version 1) is migrated and keeps its users', async () => {
        await store.close();
        opened.splice(0);
        const old = new Database(database.options.databaseFile);
        old.exec(legacySqliteMigrations[0]);
        old.pragma('user_version = 1');
        old.prepare("INSERT INTO users (name, email) VALUES ('Katherine Johnson', 'katherine@example.com')").run();
        old.close();
        const upgraded = open();
        expect((await upgraded.listUsers()).map((user) => user.name)).toEqual([...demoUsers.map((user) => user.name), 'Katherine Johnson']);
        expect(await upgraded.listTasks()).toMatchObject(demoTasks);
        expect((await upgraded.createTask({ title: 'First task', assigneeId: 4 })).assigneeId).toBe(4);
        const file = new Database(database.options.databaseFile);
        expect(file.prepare('SELECT name, version FROM gateway_migrations').all()).toEqual([
          { name: REFERENCE_APP_MIGRATIONS.name, version: REFERENCE_APP_MIGRATIONS.sqlite.length },
        ]);
        file.close();
      });
    }
  });

  describe('users', () => {
    beforeEach(() => emptyBoard(store));

    test('create, read, list, delete; a taken email is refused', async () => {
      const user = await store.createUser({ name: 'Katherine Johnson', email: 'katherine@example.com' });
      expect(user).toEqual({
        id: 4,
        name: 'Katherine Johnson',
        email: 'katherine@example.com',
        role: 'member',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      expect(await store.getUser(4)).toEqual(user);
      expect((await store.listUsers()).map((each) => each.id)).toEqual([1, 2, 3, 4]);
      await expect(store.createUser({ name: 'Ada again', email: 'ada@example.com' })).rejects.toMatchObject({
        code: 'email_taken',
        message: 'A user with email ada@example.com already exists',
      });
      expect(await store.deleteUser(4)).toEqual({ user, unassignedTaskIds: [] });
      expect(await store.getUser(4)).toBeUndefined();
      expect(await store.deleteUser(4)).toBeUndefined();
    });

    test('update changes only the fields given; a taken email is refused; unknown ids find nothing', async () => {
      const user = await store.createUser({ name: 'Dorothy Vaughan', email: 'dorothy@example.com' });
      const promoted = await store.updateUser(user.id, { role: 'admin' });
      expect(promoted).toEqual({ ...user, role: 'admin' });
      expect(await store.updateUser(user.id, { name: 'Dorothy J. Vaughan', email: 'dorothy.v@example.com' })).toEqual({
        ...promoted,
        name: 'Dorothy J. Vaughan',
        email: 'dorothy.v@example.com',
      });
      expect(await store.updateUser(user.id, { email: 'dorothy.v@example.com' })).toMatchObject({ email: 'dorothy.v@example.com' });
      await expect(store.updateUser(user.id, { email: 'ada@example.com' })).rejects.toMatchObject({ code: 'email_taken' });
      expect(await store.getUser(user.id)).toMatchObject({ email: 'dorothy.v@example.com' });
      expect(await store.updateUser(424242, { name: 'Nobody' })).toBeUndefined();
    });

    test('deleting a user unassigns their tasks, which stay on the board', async () => {
      const user = await store.createUser({ name: 'Temp', email: 'temp@example.com' });
      const first = await store.createTask({ title: 'One', assigneeId: user.id });
      const second = await store.createTask({ title: 'Two', assigneeId: user.id, status: 'done' });
      const other = await store.createTask({ title: 'Ada’s', assigneeId: 1 });
      expect(await store.deleteUser(user.id)).toEqual({ user, unassignedTaskIds: [first.id, second.id] });
      const tasks = await store.listTasks();
      expect(tasks.map((task) => [task.id, task.assigneeId])).toEqual([
        [first.id, null],
        [other.id, 1],
        [second.id, null],
      ]);
      expect(tasks.find((task) => task.id === first.id)!.updatedAt >= first.updatedAt).toBe(true);
    });

    test('the board snapshot reads tasks and users together, even while users are deleted', async () => {
      const users = await Promise.all([1, 2, 3].map((n) => store.createUser({ name: `S${n}`, email: `s${n}@example.com` })));
      await Promise.all(users.map((user) => store.createTask({ title: `Of ${user.name}`, assigneeId: user.id })));
      const snapshots = await Promise.all([
        store.tasksAndUsers(),
        ...users.map((user) => store.deleteUser(user.id)),
        store.tasksAndUsers(),
      ]);
      for (const snapshot of [snapshots[0], snapshots.at(-1)] as Array<Awaited<ReturnType<typeof store.tasksAndUsers>>>) {
        const userIds = new Set(snapshot.users.map((user) => user.id));
        expect(snapshot.tasks.every((task) => task.assigneeId === null || userIds.has(task.assigneeId))).toBe(true);
      }
      expect(await store.tasksAndUsers()).toEqual({ tasks: await store.listTasks(), users: await store.listUsers() });
    });
  });

  describe('tasks', () => {
    beforeEach(() => emptyBoard(store));

    test('create appends to its column; get, filter, partial update, unknown assignee refused', async () => {
      const a = await store.createTask({ title: 'A' });
      const b = await store.createTask({ title: 'B', description: 'details', assigneeId: 2 });
      const c = await store.createTask({ title: 'C', status: 'done' });
      expect(a).toMatchObject({ title: 'A', description: '', status: 'todo', position: 0, assigneeId: null });
      expect(b).toMatchObject({ status: 'todo', position: 1, assigneeId: 2, description: 'details' });
      expect(c).toMatchObject({ status: 'done', position: 0 });
      expect(await store.getTask(b.id)).toEqual(b);
      expect(await store.getTask(999)).toBeUndefined();
      expect((await store.listTasks({ status: 'todo' })).map((task) => task.id)).toEqual([a.id, b.id]);
      expect((await store.listTasks({ assigneeId: 2 })).map((task) => task.id)).toEqual([b.id]);
      const renamed = await store.updateTask(b.id, { title: 'B2' });
      expect(renamed).toMatchObject({ title: 'B2', description: 'details', assigneeId: 2 });
      expect((await store.updateTask(b.id, { assigneeId: null }))!.assigneeId).toBeNull();
      expect(await store.updateTask(999, { title: 'x' })).toBeUndefined();
      await expect(store.createTask({ title: 'D', assigneeId: 42 })).rejects.toBeInstanceOf(StoreError);
      await expect(store.updateTask(a.id, { assigneeId: 42 })).rejects.toMatchObject({ code: 'unknown_assignee' });
      expect(await store.listTasks()).toHaveLength(3);
    });

    test('moves within and between columns keep every column 0…n-1; delete closes the gap', async () => {
      const [a, b, c, d] = await Promise.all(['A', 'B', 'C', 'D'].map((title) => store.createTask({ title })));
      const ids = (tasks: TaskRecord[]) => columnsOf(tasks);
      const order = (await store.listTasks()).map((task) => task.id);
      expect([...order].sort((x, y) => x - y)).toEqual([a.id, b.id, c.id, d.id].sort((x, y) => x - y));
      const [t0, t1, t2, t3] = order;
      expect(await store.moveTask(t1, { status: 'todo', position: 3 })).toMatchObject({ status: 'todo', position: 3 });
      expect(ids(await store.listTasks())).toEqual({ todo: [t0, t2, t3, t1], in_progress: [], done: [] });
      await store.moveTask(t3, { status: 'in_progress' });
      await store.moveTask(t0, { status: 'in_progress', position: 0 });
      expect(ids(await store.listTasks())).toEqual({ todo: [t2, t1], in_progress: [t0, t3], done: [] });
      expect(await store.moveTask(t2, { status: 'done', position: 99 })).toMatchObject({ status: 'done', position: 0 });
      const unchanged = await store.getTask(t0);
      expect(await store.moveTask(t0, { status: 'in_progress', position: 0 })).toEqual(unchanged);
      expect(await store.moveTask(999, { status: 'done' })).toBeUndefined();
      expect(await store.deleteTask(t0)).toMatchObject({ id: t0, status: 'in_progress', position: 0 });
      expect(ids(await store.listTasks())).toEqual({ todo: [t1], in_progress: [t3], done: [t2] });
      expect(await store.deleteTask(t0)).toBeUndefined();
    });
  });

  describe('imports', () => {
    beforeEach(() => emptyBoard(store));
    const commitNow = async () => undefined;

    test('every task lands at the bottom of its column, in row order, returned in that order (1,234 rows: every chunk size)', async () => {
      const before = await store.createTask({ title: 'Already there' });
      const rows = Array.from({ length: 1234 }, (_, index) => ({
        title: `Imported ${index}`,
        status: TASK_STATUSES[index % 3],
        assigneeId: index % 5 ? null : 2,
        createdBy: 'importer',
      }));
      const imported = await store.importTasks(rows, { beforeCommit: commitNow });
      expect(imported.map((task) => task.title)).toEqual(rows.map((row) => row.title));
      expect(imported.every((task, index) => task.status === rows[index].status && task.assigneeId === rows[index].assigneeId)).toBe(true);
      expect(new Set(imported.map((task) => task.id)).size).toBe(1234);
      expect(imported[1]).toMatchObject({ description: '', createdBy: 'importer', createdAt: imported[1].updatedAt });
      const tasks = await store.listTasks();
      const columns = columnsOf(tasks);
      expect(columns.todo[0]).toBe(before.id);
      for (const status of TASK_STATUSES) {
        const expected = imported.filter((task) => task.status === status).map((task) => task.id);
        expect(columns[status].filter((id) => id !== before.id), status).toEqual(expected);
      }
      expect(await store.importTasks([], { beforeCommit: commitNow })).toEqual([]);
    });

    test('atomic: a throwing beforeCommit, an unknown assignee or a cancelled commit point leave the board unchanged', async () => {
      await store.createTask({ title: 'Kept' });
      const board = await store.listTasks();
      const rows = Array.from({ length: 150 }, (_, index) => ({ title: `Row ${index}` }));
      let ran = false;
      const failing = async (query: Query) => {
        ran = (await query<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM tasks'))[0].n === 151;
        throw new Error('not now');
      };
      await expect(store.importTasks(rows, { beforeCommit: failing })).rejects.toThrow('not now');
      expect(ran).toBe(true); // it ran last, inside the transaction, with every row written
      await expect(store.importTasks([...rows, { title: 'Nobody', assigneeId: 42 }], { beforeCommit: commitNow })).rejects.toMatchObject({
        code: 'unknown_assignee',
      });
      const cancelled = new Request('http://localhost/api/tasks/import', { signal: AbortSignal.abort() });
      await expect(
        runInRequestContext('rest', () => store.importTasks(rows, { beforeCommit: commitPoint }), cancelled),
      ).rejects.toBeInstanceOf(WorkCancelled);
      expect(await store.listTasks()).toEqual(board);
      // …and the board still takes writes where it stood.
      expect(await store.createTask({ title: 'After' })).toMatchObject({ position: 1 });
    });
  });

  describe('concurrent writers (two instances on one database)', () => {
    beforeEach(() => emptyBoard(store));

    test('parallel creates from both lose none and never share a position', async () => {
      const other = open();
      const created = await Promise.all(
        Array.from({ length: 40 }, (_, index) => (index % 2 ? other : store).createTask({ title: `Task ${index}` })),
      );
      expect(new Set(created.map((task) => task.id)).size).toBe(40);
      const tasks = await store.listTasks();
      expect(columnsOf(tasks).todo.sort((x, y) => x - y)).toEqual(created.map((task) => task.id).sort((x, y) => x - y));
    });

    test('parallel moves and edits from both keep every task, every field written, and dense positions', async () => {
      const other = open();
      const tasks = await Promise.all(Array.from({ length: 12 }, (_, index) => store.createTask({ title: `T${index}` })));
      await Promise.all(
        tasks.flatMap((task, index) => [
          (index % 2 ? store : other).moveTask(task.id, { status: TASK_STATUSES[index % 3], position: index % 4 }),
          (index % 2 ? other : store).updateTask(task.id, { title: `Renamed ${index}` }),
          (index % 3 ? store : other).updateTask(task.id, { assigneeId: (index % 3) + 1 }),
          (index % 2 ? other : store).updateTask(task.id, { description: `Described ${index}` }),
        ]),
      );
      const after = await other.listTasks();
      const columns = columnsOf(after);
      expect(Object.values(columns).flat().sort((x, y) => x - y)).toEqual(tasks.map((task) => task.id).sort((x, y) => x - y));
      for (const [index, task] of tasks.entries()) {
        expect(after.find((each) => each.id === task.id)).toMatchObject({
          status: TASK_STATUSES[index % 3],
          title: `Renamed ${index}`,
          description: `Described ${index}`,
          assigneeId: (index % 3) + 1,
        });
      }
    });

    test('the same email created at once from both: exactly one wins', async () => {
      const other = open();
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, index) => (index % 2 ? other : store).createUser({ name: `N${index}`, email: 'same@example.com' })),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect((await store.listUsers()).filter((user) => user.email === 'same@example.com')).toHaveLength(1);
    });
  });

  describe('change feed', () => {
    test('a listener hears its own instance’s writes and another instance’s, and nothing after unsubscribing', async () => {
      const other = open();
      await other.ready();
      let heard = 0;
      const unsubscribe = store.onChange(() => heard++);
      await store.createTask({ title: 'Here' });
      await expect.poll(() => heard, { timeout: 2000 }).toBeGreaterThan(0);
      const before = heard;
      await other.createTask({ title: 'Over there' });
      await expect.poll(() => heard, { timeout: 2000 }).toBeGreaterThan(before);
      unsubscribe();
      const final = heard;
      await other.createTask({ title: 'Unheard' });
      await store.createTask({ title: 'Unheard too' });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(heard).toBe(final);
    });

    test('a change names its table and rows: a move names the tasks of the column it reordered, no others, a user’s deletion the tasks it unassigned', async () => {
      await store.ready();
      const [first, second] = await store.listTasks({ status: 'todo' });
      const heard: DataChange[] = [];
      store.onChange((changes) => heard.push(...changes));
      // Listening starts asynchronously (PostgreSQL's LISTEN): writes until one is heard show that it is under way.
      const warmUp = async () => (await store.createTask({ title: 'Warm-up' }), heard.length);
      await expect.poll(warmUp, { timeout: 5000, interval: 200 }).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 300)); // the last warm-up's notification, if still on its way
      const changed = async (write: () => Promise<unknown>) => {
        heard.length = 0;
        await write();
        await expect.poll(() => heard.length, { timeout: 2000 }).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        const rows = (table: string) => [...new Set(heard.filter((change) => change.table === table).flatMap((change) => change.ids ?? [Number.NaN]))].sort();
        return { tasks: rows('tasks'), users: rows('users') };
      };
      expect(await changed(() => store.updateTask(first.id, { title: 'Renamed' }))).toEqual({ tasks: [first.id], users: [] });
      const moved = await changed(() => store.moveTask(second.id, { status: 'todo', position: 0 }));
      const todo = (await store.listTasks({ status: 'todo' })).map((task) => task.id);
      expect(moved.tasks).toEqual(expect.arrayContaining([first.id, second.id]));
      expect(todo).toEqual(expect.arrayContaining(moved.tasks));
      expect(moved.users).toEqual([]);
      const user = await store.createUser({ name: 'Temp', email: 'temp@example.com' });
      const task = await store.createTask({ title: 'Assigned', assigneeId: user.id });
      const deleted = await changed(() => store.deleteUser(user.id));
      expect(deleted.users).toEqual([user.id]);
      expect(deleted.tasks).toContain(task.id);
    });

    test('a read-only call or a refused write is not a change', async () => {
      await store.ready(); // migrating a new database seeds the demo tasks: a change, before this test's calls
      let heard = 0;
      store.onChange(() => heard++);
      await store.listTasks();
      await store.moveTask(999, { status: 'done' });
      await expect(store.createUser({ name: 'Ada', email: 'ada@example.com' })).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(heard).toBe(0);
    });
  });
});
