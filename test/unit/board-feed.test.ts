// The board feed behind /api/board/stream: a snapshot on joining and after changes (coalesced), retries, leaving on abort.
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { store } from '@/lib/db/store';
import type { BoardEvent } from '@/modules/board/board-schemas';
import BoardService from '@/modules/board/board-service';
import { createTestDatabase, type TestDatabase } from '../support/databases';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('sqlite');
  vi.stubEnv('DATABASE_FILE', database.options.databaseFile);
  vi.stubEnv('DATABASE_URL', '');
  // The tests count from an empty board: the demo tasks of a new database go first.
  for (const task of await store().listTasks()) await store().deleteTask(task.id);
});

afterAll(async () => {
  await store().close();
  vi.unstubAllEnvs();
  await database.drop();
});

/** Watches the board; `titles()` is the todo column of the last board received. */
function watch(send: (event: BoardEvent) => boolean = () => true) {
  const events: BoardEvent[] = [];
  const stop = new AbortController();
  BoardService.watch((event) => {
    events.push(event);
    return send(event);
  }, stop.signal);
  const boards = () => events.flatMap((event) => (event.type === 'board' ? [event.board] : []));
  const titles = () => boards().at(-1)?.columns[0].tasks.map((task) => task.title);
  return { boards, titles, stop: () => stop.abort() };
}

test('a watcher gets the board at once, then after each change; one write makes one snapshot', async () => {
  const watcher = watch();
  await expect.poll(watcher.titles).toEqual([]);
  await store().createTask({ title: 'First' });
  await expect.poll(watcher.titles).toEqual(['First']);
  const seen = watcher.boards().length;
  await store().moveTask((await store().listTasks())[0].id, { status: 'todo', position: 0 });
  await store().createTask({ title: 'Second' });
  await expect.poll(watcher.titles).toEqual(['First', 'Second']);
  expect(watcher.boards().length).toBe(seen + 1);
  watcher.stop();
});

/** The feed's rule: snapshots after changes start at least this far apart (SNAPSHOT_INTERVAL_MS). */
const SNAPSHOT_INTERVAL_MS = 250;

test('50 quick writes make a few snapshots, not 50, and the last one shows the final state', async () => {
  const watcher = watch();
  await expect.poll(watcher.titles).toBeDefined();
  const task = await store().createTask({ title: 'Rewritten 0' });
  await expect.poll(watcher.titles).toContain('Rewritten 0');
  try {
    const before = watcher.boards().length;
    const started = performance.now();
    for (let i = 1; i <= 50; i++) {
      await store().updateTask(task.id, { title: `Rewritten ${i}` });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await expect.poll(watcher.titles).toContain('Rewritten 50');
    const elapsed = performance.now() - started;
    const snapshots = watcher.boards().length - before;
    // However slow the machine, snapshots start SNAPSHOT_INTERVAL_MS apart at least: the count is bounded by the time taken.
    expect(snapshots).toBeLessThanOrEqual(1 + Math.floor(elapsed / SNAPSHOT_INTERVAL_MS));
    expect(snapshots).toBeLessThan(50 / 4);
    await new Promise((resolve) => setTimeout(resolve, 2 * SNAPSHOT_INTERVAL_MS));
    expect(watcher.titles()).toContain('Rewritten 50'); // nothing older came after it
  } finally {
    watcher.stop();
    await store().deleteTask(task.id);
  }
});

test('after abort, or once send reports the client gone, a watcher gets nothing more', async () => {
  const aborted = watch();
  let open = true;
  const gone = watch(() => open);
  await expect.poll(aborted.titles).toBeDefined();
  await expect.poll(gone.titles).toBeDefined();
  aborted.stop();
  open = false;
  await store().createTask({ title: 'Third' });
  await expect.poll(gone.boards).toHaveLength(2); // the one whose send said false, then no more
  const present = watch();
  await store().createTask({ title: 'Fourth' });
  await expect.poll(present.titles).toEqual(['First', 'Second', 'Third', 'Fourth']);
  expect(aborted.boards()).toHaveLength(1);
  expect(gone.boards()).toHaveLength(2);
  present.stop();
});

test('a failed load is tried again a second later', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(store(), 'tasksAndUsers').mockRejectedValueOnce(new Error('database unreachable'));
  const watcher = watch();
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(watcher.boards()).toEqual([]);
  await expect.poll(watcher.titles, { timeout: 3000 }).toEqual(['First', 'Second', 'Third', 'Fourth']);
  watcher.stop();
  vi.restoreAllMocks();
});

test('events() yields the board, ends at once when its signal aborts while it waits, and leaves the feed', async () => {
  const subscribe = store().onChange.bind(store());
  const unsubscribed = vi.fn();
  vi.spyOn(store(), 'onChange').mockImplementation((listener) => {
    const unsubscribe = subscribe(listener);
    return () => {
      unsubscribed();
      unsubscribe();
    };
  });
  const stop = new AbortController();
  const events = BoardService.events(stop.signal);
  const first = await events.next();
  expect(first.value).toMatchObject({ type: 'board' });
  const waiting = events.next();
  stop.abort();
  expect(await waiting).toEqual({ value: undefined, done: true });
  expect(unsubscribed).toHaveBeenCalledTimes(1);
  vi.restoreAllMocks();
});
