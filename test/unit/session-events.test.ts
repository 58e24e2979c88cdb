// The event store of 2025-era MCP sessions on both backends: replay in order within one stream of one session,
// event ids that belong to their session only, pruning, live delivery when the database cannot store, and no board
// change signalled for them.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CHANGE_CHANNEL } from '@gateway/db/postgres';
import { SessionEventLog } from '@gateway/mcp/sessions/session-events';
import type { Store } from '@/lib/store';
import { type Backend, createTestDatabase, type TestDatabase } from '../support/databases';
import { openMigratedStore } from '../support/stores';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });
const PRIMING = {} as JSONRPCMessage;

/** The events `replayEventsAfter` sends, as [id, message] pairs. */
async function replayed(store: ReturnType<SessionEventLog['forSession']>, after: string) {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(after, { send: async (id, message) => void sent.push([id, message]) });
  return { streamId, sent };
}

describe.each<Backend>(['sqlite', 'postgres'])('session events on %s', (backend) => {
  let database: TestDatabase;
  let store: Store;
  let log: SessionEventLog;

  beforeEach(async () => {
    database = await createTestDatabase(backend);
    store = await openMigratedStore(database);
    log = new SessionEventLog(store.driver);
  });

  afterEach(async () => {
    await store.close().catch(() => undefined);
    await database.drop();
  });

  test('a reconnect replays the later events of its own stream, in order, without priming events', async () => {
    const session = log.forSession('session-a');
    const primed = await session.storeEvent('stream-1', PRIMING);
    const first = await session.storeEvent('stream-1', note(1));
    await session.storeEvent('stream-2', note(99));
    const second = await session.storeEvent('stream-1', note(2));
    const third = await session.storeEvent('stream-1', note(3));

    expect(await replayed(session, primed)).toEqual({ streamId: 'stream-1', sent: [[first, note(1)], [second, note(2)], [third, note(3)]] });
    expect(await replayed(session, second)).toEqual({ streamId: 'stream-1', sent: [[third, note(3)]] });
    expect(await session.getStreamIdForEventId?.(first)).toBe('stream-1');
  });

  test('stores and replays of a session run in order: a replay sees the event being stored, an event stored during a replay waits for it', async () => {
    const session = log.forSession('session-a');
    const question = await session.storeEvent('stream-1', note(1));
    // An answer being stored when the client reconnects: the replay includes it.
    const answer = session.storeEvent('stream-1', note(2));
    const replay = replayed(session, question);
    expect(await replay).toEqual({ streamId: 'stream-1', sent: [[await answer, note(2)]] });
    // An answer stored while a replay runs is stored after it (the reconnect's stream is registered by then).
    const settled: string[] = [];
    const again = replayed(session, question).then(() => settled.push('replay'));
    const later = session.storeEvent('stream-1', note(3)).then(() => settled.push('store'));
    await Promise.all([again, later]);
    expect(settled).toEqual(['replay', 'store']);
  });

  test("an event id of another session is no event of this one: nothing is replayed from it", async () => {
    const mine = log.forSession('session-a');
    const theirs = log.forSession('session-b');
    const their = await theirs.storeEvent('_GET_stream', note(1));
    await theirs.storeEvent('_GET_stream', note(2));
    await mine.storeEvent('_GET_stream', note(3));

    expect(await theirs.owns(their)).toBe(true);
    expect(await mine.owns(their)).toBe(false);
    expect(await mine.getStreamIdForEventId?.(their)).toBeUndefined();
    await expect(replayed(mine, their)).rejects.toThrow(/no event of this session/);
    for (const bogus of ['', 'abc', '-1', '1; DROP TABLE mcp_events', '9'.repeat(40)]) expect(await mine.owns(bogus), bogus).toBe(false);
  });

  test('a session that ends takes its events along; old events are pruned by age', async () => {
    const ending = log.forSession('ending');
    const staying = log.forSession('staying');
    const gone = await ending.storeEvent('s', note(1));
    const old = await staying.storeEvent('s', note(2));
    await log.dropSession('ending');
    expect(await ending.owns(gone)).toBe(false);
    expect(await staying.owns(old)).toBe(true);

    const cutoff = Date.now() + 1;
    await expect.poll(() => Date.now()).toBeGreaterThan(cutoff);
    const recent = await staying.storeEvent('s', note(3));
    await log.pruneBefore(cutoff);
    expect(await staying.owns(old)).toBe(false);
    expect(await staying.owns(recent)).toBe(true);
  });

  test('events are no change of the board: its listeners hear board writes only', async () => {
    const heard = vi.fn();
    store.onChange(heard);
    // On PostgreSQL, wait until the LISTEN connection (opened for the first listener) is up.
    await new Promise<void>((resolve) => (store.driver.messaging ? store.driver.messaging.listen(CHANGE_CHANNEL, { message: () => {}, listening: () => resolve() }) : resolve()));
    const session = log.forSession('quiet');
    for (let n = 0; n < 5; n++) await session.storeEvent('s', note(n));
    await log.pruneBefore(0);
    await log.dropSession('quiet');
    // Changes are heard in commit order: once this board write is heard, any of the events' would have been before it.
    await store.createTask({ title: 'A board change' });
    await expect.poll(() => heard.mock.calls.length).toBeGreaterThan(0);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  test('when the database cannot store an event, its message still goes out live, with an id that resumes nothing', async () => {
    const session = log.forSession('unlucky');
    const stored = await session.storeEvent('s', note(1));
    await store.close();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const unsaved = await session.storeEvent('s', note(2));
      expect(unsaved).toMatch(/^unsaved-\d+$/);
      expect(unsaved).not.toBe(stored);
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('cannot be stored (sent live, not resumable)'));
      expect(await session.owns(unsaved).catch(() => false)).toBe(false);
    } finally {
      errors.mockRestore();
    }
  });
});
