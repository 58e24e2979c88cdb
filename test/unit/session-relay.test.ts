// The relay between instances sharing one PostgreSQL: a request for a session held elsewhere reaches its owner (its
// caller verified, its token left behind), the owner's streamed answer comes back in order (large pieces through the
// table), a client that leaves stops the owner, and an owner that stopped or does not answer gets a clear status: a 503
// only when the owner did nothing, its real answer however late it starts, 502 when it stopped while working on it.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { SqlMessaging } from '@gateway/db/driver';
import { SessionDirectory } from '@gateway/mcp/sessions/session-directory';
import { type RelayedRequest, type ServeRelayed, SessionRelay } from '@gateway/mcp/sessions/session-relay';
import type { Store } from '@/lib/store';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { openMigratedStore } from '../support/stores';

/** One gateway instance as far as the relay goes: its store, its record in the directory, its relay. */
interface Instance {
  store: Store;
  directory: SessionDirectory;
  relay: SessionRelay;
  /** Stops taking relayed messages; the instance still runs (its LISTEN connection stays up). */
  stopListening: () => void;
  /** How many relayed messages it has been handed. */
  delivered: () => number;
  /** As when its LISTEN connection was lost and opened again: what was sent meanwhile is lost. */
  relisten: () => void;
}

/** The relay's timeout in these tests (its `ackTimeoutMs`). */
const ACK_TIMEOUT_MS = 500;

const caller = { subject: 'ada', clientId: 'explorer', scopes: ['gateway:read'] };
const authInfo: AuthInfo = { token: 'the-bearer-token', clientId: 'explorer', scopes: ['gateway:read'] };

/** A streamed answer the test writes to; `cancelled` tells whether its reader went away. */
function controlledAnswer(init: ResponseInit = {}) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const cancelled = vi.fn();
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c), cancel: cancelled });
  const write = (text: string | Uint8Array) => controller.enqueue(typeof text === 'string' ? new TextEncoder().encode(text) : text);
  return { response: new Response(body, init), write, end: () => controller.close(), cancelled };
}

describe('session relay on PostgreSQL', { timeout: 20 * ACK_TIMEOUT_MS }, () => {
  let database: TestDatabase;
  const stores: Store[] = [];

  const openedStore = async () => {
    const store = await openMigratedStore(database);
    stores.push(store);
    return store;
  };

  /** An instance serving relayed requests with `serve`; each relayed message reaches it `inboxDelayMs` late. */
  async function startInstance(serve: ServeRelayed = () => new Promise(() => {}), { inboxDelayMs = 0 } = {}): Promise<Instance> {
    const store = await openedStore();
    const messaging = store.driver.messaging!;
    let delivered = 0;
    let relisten!: () => void;
    const inbox: SqlMessaging = {
      ...messaging,
      listen: (channel, listener) =>
        messaging.listen(channel, {
          ...listener,
          listening: (pid, again) => {
            relisten = () => listener.listening?.(pid, true);
            listener.listening?.(pid, again);
          },
          message: (payload) =>
            void setTimeout(() => {
              delivered++;
              listener.message(payload);
            }, inboxDelayMs),
        }),
    };
    const directory = new SessionDirectory(store.driver, messaging, randomBytes(8).toString('hex'));
    const relay = new SessionRelay(store.driver, inbox, directory, serve, ACK_TIMEOUT_MS);
    let stopListening!: () => void;
    await new Promise<void>((resolve) => {
      stopListening = relay.start((pid) => void directory.announce(pid).then(resolve));
    });
    return { store, directory, relay, stopListening, delivered: () => delivered, relisten: () => relisten() };
  }

  /** A peer that speaks the relay's messages by hand (an older instance, or one that breaks off): what it was sent. */
  async function startPeer() {
    const messaging = (await openedStore()).driver.messaging!;
    const instance = randomBytes(8).toString('hex');
    const received: Array<{ k: string; status?: number; r: string; request?: RelayedRequest; v?: number }> = [];
    await new Promise<void>((resolve) => {
      messaging.listen(`mcp_relay_${instance}`, { message: (payload) => received.push(JSON.parse(payload)), listening: () => resolve() });
    });
    const send = (to: string, message: object) => messaging.notify(`mcp_relay_${to}`, JSON.stringify(message));
    return { instance, received, send, kinds: () => received.map((message) => message.k) };
  }

  /** What a request relayed by hand carries. */
  const relayedRequest: RelayedRequest = {
    sessionId: 'session-1',
    method: 'POST',
    url: 'http://localhost:3000/api/mcp',
    headers: [['content-type', 'application/json']],
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
  };

  const request = (body?: string) =>
    new Request('http://localhost:3000/api/mcp', {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: 'Bearer the-bearer-token', 'content-type': 'application/json', 'mcp-session-id': 'session-1' },
      ...(body === undefined ? {} : { body }),
    });

  beforeEach(async () => {
    database = await createTestDatabase('postgres');
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close().catch(() => undefined)));
    await database.drop();
  });

  test("a relayed request reaches the owner without the token, as its caller; the answer streams back in order, large pieces included", async () => {
    const seen: Array<{ request: RelayedRequest; headers: Headers; body: string }> = [];
    const answer = controlledAnswer({ status: 200, headers: { 'content-type': 'text/event-stream', 'x-answer': 'yes' } });
    const owner = await startInstance(async (relayed, http) => {
      seen.push({ request: relayed, headers: http.headers, body: await http.text() });
      return answer.response;
    });
    const proxy = await startInstance();
    const large = 'x'.repeat(20_000);
    const euro = new TextEncoder().encode('€'); // three bytes, split over two pieces

    const response = await proxy.relay.forward(owner.directory.instance, 'session-1', request('{"jsonrpc":"2.0","id":1}'), caller, authInfo);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-answer')).toBe('yes');
    answer.write('event: message\n');
    answer.write(large);
    answer.write(euro.slice(0, 1));
    answer.write(euro.slice(1));
    answer.end();
    expect(await response.text()).toBe(`event: message\n${large}€`);

    expect(seen).toHaveLength(1);
    expect(seen[0].body).toBe('{"jsonrpc":"2.0","id":1}');
    expect(seen[0].request).toMatchObject({ sessionId: 'session-1', method: 'POST', caller, authInfo: { ...authInfo, token: '' } });
    expect(seen[0].headers.get('authorization')).toBeNull();
    expect(seen[0].headers.get('mcp-session-id')).toBe('session-1');
    const left = await owner.store.driver.read((query) => query<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM gateway_mcp_relay_payloads'));
    expect(left[0].n).toBe(0); // the large piece went through the table and was taken from it
  });

  test('an answer without a body (202) comes back as one', async () => {
    const owner = await startInstance(async () => new Response(null, { status: 202 }));
    const proxy = await startInstance();
    const response = await proxy.relay.forward(owner.directory.instance, 'session-1', request('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
    expect(response.status).toBe(202);
    expect(response.body).toBeNull();
  });

  test("a client that leaves stops the owner's answer", async () => {
    const answer = controlledAnswer({ status: 200, headers: { 'content-type': 'text/event-stream' } });
    const owner = await startInstance(async () => answer.response);
    const proxy = await startInstance();
    const response = await proxy.relay.forward(owner.directory.instance, 'session-1', request());
    answer.write(': open\n\n');
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': open\n\n');
    await reader.cancel();
    await expect.poll(() => answer.cancelled.mock.calls.length).toBe(1);
  });

  test('shutdown of the relaying instance: a relayed POST runs to its answer; a relayed GET stream ends at once, and its owner stops sending', async () => {
    const call = controlledAnswer({ status: 200, headers: { 'content-type': 'text/event-stream' } });
    const stream = controlledAnswer({ status: 200, headers: { 'content-type': 'text/event-stream' } });
    const owner = await startInstance(async (relayed) => (relayed.method === 'GET' ? stream.response : call.response));
    const proxy = await startInstance();
    const posted = await proxy.relay.forward(owner.directory.instance, 'session-1', request('{"jsonrpc":"2.0","id":7,"method":"tools/call"}'));
    const listening = await proxy.relay.forward(owner.directory.instance, 'session-1', request());
    const streamRead = listening.body!.getReader().read();

    proxy.relay.drain();
    await expect(streamRead).rejects.toThrow('Relay ended: the server is shutting down');
    await expect.poll(() => stream.cancelled.mock.calls.length).toBe(1);
    // The call's answer still comes through, to its end.
    call.write('data: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
    call.end();
    expect(await posted.text()).toBe('data: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
    expect(call.cancelled).not.toHaveBeenCalled();
  });

  test('an owner that stopped: 404 (its sessions are gone from the directory); one that runs but takes nothing: 503', async () => {
    const silent = await startInstance();
    const stopped = await startInstance();
    const proxy = await startInstance();
    await stopped.directory.register([{ id: 'orphan', principal: '' }]);
    await silent.directory.register([{ id: 'waiting', principal: '' }]);
    await stopped.store.close();
    silent.stopListening();

    const orphan = await proxy.relay.forward(stopped.directory.instance, 'orphan', request('{}'));
    expect(orphan.status).toBe(404);
    expect((await orphan.json()).error.code).toBe(-32001);
    expect(await proxy.directory.find('orphan')).toBeUndefined();

    const waiting = await proxy.relay.forward(silent.directory.instance, 'waiting', request('{}'));
    expect(waiting.status).toBe(503);
    expect(waiting.headers.get('retry-after')).toBe('1');
    expect(await proxy.directory.find('waiting')).toEqual({ owner: silent.directory.instance, principal: '' });
  });
  test('an owner that starts answering later than the timeout: the relayed answer is its real one, not 503', async () => {
    const owner = await startInstance(async () => {
      await sleep(3 * ACK_TIMEOUT_MS);
      return Response.json({ jsonrpc: '2.0', id: 1, result: { late: true } });
    });
    const proxy = await startInstance();
    const response = await proxy.relay.forward(owner.directory.instance, 'session-1', request('{"jsonrpc":"2.0","id":1}'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { late: true } });
  });

  test('a request that reaches its owner only after the relaying instance gave up: 503, and the owner never serves it', async () => {
    const serve = vi.fn<ServeRelayed>(async () => Response.json({}));
    const owner = await startInstance(serve, { inboxDelayMs: 2 * ACK_TIMEOUT_MS });
    const proxy = await startInstance();
    const response = await proxy.relay.forward(owner.directory.instance, 'session-1', request('{"jsonrpc":"2.0","id":1}'));
    expect(response.status).toBe(503);
    // The owner reads the request and the cancel that followed it, then waits for a go as long as it would.
    await expect.poll(() => owner.delivered()).toBe(2);
    await sleep(2 * ACK_TIMEOUT_MS);
    expect(serve).not.toHaveBeenCalled();
  });

  test('an owner that stops while working on a request: 502, it may have been carried out (a GET stream: 404)', async () => {
    const working = vi.fn<ServeRelayed>(() => new Promise(() => {}));
    const owner = await startInstance(working);
    const proxy = await startInstance();
    await owner.directory.register([{ id: 'session-1', principal: '' }]);
    const call = proxy.relay.forward(owner.directory.instance, 'session-1', request('{"jsonrpc":"2.0","id":1}'));
    const stream = proxy.relay.forward(owner.directory.instance, 'session-1', request());
    await expect.poll(() => working.mock.calls.length).toBe(2);
    // Working longer than the timeout, as long as the owner runs.
    await sleep(2 * ACK_TIMEOUT_MS);
    await owner.store.close();

    const lost = await call;
    expect(lost.status).toBe(502);
    expect((await lost.json()).error.message).toMatch(/stopped while working on it.*may have been carried out/);
    expect((await stream).status).toBe(404);
    expect(await proxy.directory.find('session-1')).toBeUndefined();
  });

  test('a relaying instance that loses its LISTEN connection: 502 for a request its owner was working on, an error before', async () => {
    const working = vi.fn<ServeRelayed>(() => new Promise(() => {}));
    const owner = await startInstance(working);
    const silent = await startInstance();
    silent.stopListening();
    const proxy = await startInstance();
    const started = proxy.relay.forward(owner.directory.instance, 'session-1', request('{"jsonrpc":"2.0","id":1}'));
    const unacknowledged = proxy.relay.forward(silent.directory.instance, 'session-2', request('{"jsonrpc":"2.0","id":1}'));
    await expect.poll(() => working.mock.calls.length).toBe(1);
    proxy.relisten();

    const lost = await started;
    expect(lost.status).toBe(502);
    expect((await lost.json()).error.message).toMatch(/connection to the database was lost while .* worked on it.*may have been carried out/);
    // Not taken yet: the error the lane answers 503 (the owner, without a go, never starts it).
    await expect(unacknowledged).rejects.toThrow('Relay ended: the connection to the database was lost');
  });

  test('an older owner, which never acknowledges: its answer comes through as before', async () => {
    const older = await startPeer();
    const proxy = await startInstance();
    const response = proxy.relay.forward(older.instance, 'session-1', request('{"jsonrpc":"2.0","method":"notifications/initialized"}'));
    await expect.poll(older.kinds).toEqual(['open']);
    const [open] = older.received;
    expect(open.v).toBe(2);
    await older.send(proxy.directory.instance, { k: 'head', r: open.r, status: 202, headers: [], body: false });
    expect((await response).status).toBe(202);
    expect(older.kinds()).toEqual(['open']); // no go for an owner that did not acknowledge
  });

  test('an older relaying instance is served at once; one that never says go gets 503 from the owner, which never starts', async () => {
    const serve = vi.fn<ServeRelayed>(async () => Response.json({ served: true }));
    const owner = await startInstance(serve);
    const peer = await startPeer();
    await peer.send(owner.directory.instance, { k: 'open', r: 'older', from: peer.instance, request: relayedRequest });
    await expect.poll(peer.kinds).toEqual(['head', 'data', 'end']);
    expect(serve).toHaveBeenCalledTimes(1);

    peer.received.length = 0;
    await peer.send(owner.directory.instance, { k: 'open', r: 'no-go', from: peer.instance, request: relayedRequest, v: 2 });
    await expect.poll(peer.kinds).toEqual(['ack']);
    await expect.poll(peer.kinds, { timeout: 4 * ACK_TIMEOUT_MS }).toEqual(['ack', 'head', 'data', 'end']);
    expect(peer.received[1].status).toBe(503);
    await peer.send(owner.directory.instance, { k: 'go', r: 'no-go' }); // too late: nothing starts
    await sleep(ACK_TIMEOUT_MS);
    expect(serve).toHaveBeenCalledTimes(1);
  });
});
