// The board feed behind /api/board/stream: a snapshot on joining and after changes (coalesced), retries, leaving on
// abort; the wait for a change behind /api/board/changes (at once, on change, after its timeout, leaving on abort).
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { configureGateway } from '@gateway/config';
import { WorkCancelled } from '@gateway/long-work/current-work';
import { store } from '@/lib/store';
import type { BoardEvent } from '@/modules/board/board-schemas';
import BoardService, { boardVersion } from '@/modules/board/board-service';
import { createTestDatabase, type TestDatabase } from '../support/databases';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('sqlite');
  configureGateway({ databaseFile: database.options.databaseFile });
  // The tests count from an empty board: the demo tasks of a new database go first.
  for (const task of await store().listTasks()) await store().deleteTask(task.id);
});

afterAll(async () => {
  await store().close();
  configureGateway();
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

/** Counts the feed's store subscriptions ended from now on (the feed ends its one when its last watcher leaves). */
function countUnsubscribes() {
  const subscribe = store().onChange.bind(store());
  const unsubscribed = vi.fn();
  vi.spyOn(store(), 'onChange').mockImplementation((listener) => {
    const unsubscribe = subscribe(listener);
    return () => {
      unsubscribed();
      unsubscribe();
    };
  });
  return unsubscribed;
}

test('events() yields the board, ends at once when its signal aborts while it waits, and leaves the feed', async () => {
  const unsubscribed = countUnsubscribes();
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

describe('waiting for a change', () => {
  const never = new AbortController().signal;
  const current = async () => boardVersion(await BoardService.getBoard());
  /** The timers keeping the process alive (the feed's heartbeat is unref'd: a wait's own timer shows here). */
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  const settled = (promise: Promise<unknown>) =>
    Promise.race([promise.then(() => true, () => true), new Promise((resolve) => setTimeout(() => resolve(false), 150))]);

  test('the version is a digest of the board: equal boards, equal versions; any change, another', async () => {
    const board = await BoardService.getBoard();
    expect(boardVersion(structuredClone(board))).toBe(boardVersion(board));
    expect(boardVersion(board)).toMatch(/^[\w-]{22}$/);
    const renamed = structuredClone(board);
    renamed.users[0].name += '!';
    expect(boardVersion(renamed)).not.toBe(boardVersion(board));
  });

  test('answers at once when the board differs from `after`, or `after` is left out', async () => {
    const version = await current();
    for (const after of [undefined, 'an older version']) {
      const started = performance.now();
      expect(await BoardService.waitForChange(after, 25_000, never)).toMatchObject({ version, changed: true });
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  test('answers when the board next changes, with the new board and its version', async () => {
    const waiting = BoardService.waitForChange(await current(), 25_000, never);
    expect(await settled(waiting)).toBe(false);
    const task = await store().createTask({ title: 'Waited for' });
    const change = await waiting;
    expect(change.changed).toBe(true);
    expect(change.board.columns[0].tasks.map((each) => each.title)).toContain('Waited for');
    expect(change.version).toBe(boardVersion(change.board));
    await store().deleteTask(task.id);
  });

  test('answers the board as it is, `changed: false`, once the wait runs out', async () => {
    const version = await current();
    const started = performance.now();
    expect(await BoardService.waitForChange(version, 300, never)).toMatchObject({ version, changed: false });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  test('ends at once when its caller leaves, holding no timer and no place in the feed', async () => {
    const unsubscribed = countUnsubscribes();
    await new Promise((resolve) => setTimeout(resolve, 2 * SNAPSHOT_INTERVAL_MS)); // the feed's own timers, if any, have run
    const before = timers();
    const leaving = new AbortController();
    const waiting = BoardService.waitForChange(await current(), 25_000, leaving.signal);
    expect(await settled(waiting)).toBe(false);
    expect(timers()).toBe(before + 1);
    leaving.abort('the client left');
    await expect(waiting).rejects.toBeInstanceOf(WorkCancelled);
    expect(unsubscribed).toHaveBeenCalledTimes(1);
    expect(timers()).toBe(before);
    await expect(BoardService.waitForChange('any', 25_000, leaving.signal)).rejects.toBeInstanceOf(WorkCancelled);
    expect(timers()).toBe(before);
    vi.restoreAllMocks();
  });
});
