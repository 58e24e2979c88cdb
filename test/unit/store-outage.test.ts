// The PostgreSQL store when the database goes away: quick ServiceUnavailableErrors (never a hang), then it recovers by itself.
import net from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '@gateway/db/database';
import { ServiceUnavailableError } from '@gateway/unavailable';
import { Store } from '@/lib/store';
import { createOwnPostgres, type OwnPostgres } from '../support/own-postgres';

let cluster: OwnPostgres;
let store: Store;

beforeAll(async () => {
  cluster = await createOwnPostgres();
  store = new Store(openDatabase({ databaseUrl: cluster.url, databaseFile: ':unused:' }));
  await store.ready();
}, 60_000);

afterAll(async () => {
  await store?.close();
  await cluster?.remove();
});

/** How a store call failed and how long it took to. */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call().then(
    () => undefined,
    (reason: unknown) => reason,
  );
  return { error, ms: performance.now() - started };
}

test('database stopped: reads and writes fail at once with ServiceUnavailableError; restarted: the store works again and LISTEN resumes', async () => {
  let changes = 0;
  const stopListening = store.onChange(() => changes++);
  await store.createTask({ title: 'Before the outage' });
  // LISTEN is up once a write is heard (the connection opens in the background).
  await expect
    .poll(async () => {
      const before = changes;
      await store.updateUser(1, { role: 'admin' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return changes - before;
    })
    .toBeGreaterThan(0);

  await cluster.stop();
  for (const call of [() => store.listTasks(), () => store.createTask({ title: 'During the outage' })]) {
    const { error, ms } = await failure(call);
    expect(ServiceUnavailableError.is(error), String(error)).toBe(true);
    expect((error as ServiceUnavailableError).statusCode).toBe(503);
    expect((error as Error).message).toMatch(/database is unavailable/);
    expect(ms).toBeLessThan(1000);
  }

  await cluster.start();
  const seen = changes;
  // The LISTEN connection is opened again, and a change is emitted then (notifications sent meanwhile are lost).
  await expect.poll(() => changes, { timeout: 10_000 }).toBeGreaterThan(seen);
  // The database starts with demo tasks: only this test's titles are looked at.
  const ours = async () => (await store.listTasks()).map((task) => task.title).filter((title) => title.endsWith('the outage'));
  expect(await ours()).toEqual(['Before the outage']);
  await store.createTask({ title: 'After the outage' });
  expect(await ours()).toEqual(['Before the outage', 'After the outage']);
  stopListening();
}, 60_000);

test('a database that accepts connections but never answers: ServiceUnavailableError after the connect timeout, no hang', async () => {
  const silent = net.createServer(() => {}); // accepts, never speaks
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as net.AddressInfo;
  const stuck = new Store(openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, databaseFile: ':unused:' }));
  try {
    const { error, ms } = await failure(() => stuck.listTasks());
    expect(ServiceUnavailableError.is(error), String(error)).toBe(true);
    expect(ms).toBeGreaterThan(2500);
    expect(ms).toBeLessThan(5000);
  } finally {
    silent.close();
    await stuck.close().catch(() => undefined);
  }
}, 30_000);

test('an error of the request itself is not an outage: a taken email stays a StoreError', async () => {
  const { error } = await failure(() => store.createUser({ name: 'Ada again', email: 'ada@example.com' }));
  expect(ServiceUnavailableError.is(error)).toBe(false);
  expect(error).toMatchObject({ name: 'StoreError', code: 'email_taken' });
});
