// Procedures as MCP resources, through the real server and the official clients of both eras: list and read (JSON,
// text, blobs; not found), subscriptions fed by data changes (a listen stream, a 2025 session; across two instances
// on PostgreSQL), refusal of what the caller may not read, a token's expiry ending its stream, per-caller shares.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import http from 'node:http';
import { Readable } from 'node:stream';
import { expect, test } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../test/support/databases';
import { eventsOf, mcpHeaders, modernEnvelope, modernHeaders, readEvents, type StreamEvent } from './support/json-rpc';
import { scriptToken, startOAuthGateway } from './support/oauth';
import { createTask } from './support/rest-data';
import { e2ePort, type RunningServer, startServer, stoppedAfterAll } from './support/server';

const BOARD = 'vovk://gateway/api/board';
const taskUri = (id: number) => `vovk://gateway/api/tasks/${id}`;
const userUri = (id: number) => `vovk://gateway/api/users/${id}`;
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';
const UPDATED = 'notifications/resources/updated';

type Contents = Array<{ uri: string; mimeType?: string; text?: string; blob?: string }>;

/** A client of each era, with what resources need of it. */
interface ResourceClient {
  listResources(): Promise<Array<{ uri: string; name: string; mimeType?: string; _meta?: Record<string, unknown> }>>;
  listTemplates(): Promise<Array<{ uriTemplate: string; name: string; _meta?: Record<string, unknown> }>>;
  read(uri: string): Promise<Contents>;
  close(): Promise<void>;
}

const eras = ['2025-11-25 (SDK v1, session)', '2026-07-28 (client v2)'] as const;

async function resourceClient(era: (typeof eras)[number], baseURL: string, headers: Record<string, string> = {}): Promise<ResourceClient> {
  const url = new URL('/api/mcp', baseURL);
  const client =
    era === eras[0]
      ? new ClientV1({ name: 'e2e-resources-v1', version: '1.0.0' })
      : new ClientV2({ name: 'e2e-resources-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = era === eras[0] ? new TransportV1(url, { requestInit: { headers } }) : new TransportV2(url, { requestInit: { headers } });
  await client.connect(transport as never);
  return {
    listResources: async () => (await client.listResources()).resources as never,
    listTemplates: async () => (await client.listResourceTemplates()).resourceTemplates as never,
    read: async (uri) => (await client.readResource({ uri })).contents as Contents,
    close: async () => {
      if (transport instanceof TransportV1 && transport.sessionId) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** A POST whose answer streams, sent from the loopback `localAddress` (another address is another caller). */
function postFrom(localAddress: string, url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(url.replace('localhost', '127.0.0.1'), { method: 'POST', headers, localAddress, signal }, (answer) => {
      const stream = Readable.toWeb(answer) as ReadableStream<Uint8Array>;
      resolve(new Response(stream, { status: answer.statusCode, headers: answer.headers as Record<string, string> }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** A raw 2026-07-28 listen stream: its acknowledgement, every notification after it as it comes, and how it ended. */
async function listen(baseURL: string, notifications: Record<string, unknown>, { headers = {}, from }: { headers?: Record<string, string>; from?: string } = {}) {
  const controller = new AbortController();
  const allHeaders = { ...modernHeaders('subscriptions/listen'), ...headers };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications, _meta: modernEnvelope() } });
  const url = `${baseURL}/api/mcp`;
  const response = from
    ? await postFrom(from, url, allHeaders, body, controller.signal)
    : await fetch(url, { method: 'POST', headers: allHeaders, body, signal: controller.signal });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    throw Object.assign(new Error(`listen answered HTTP ${response.status}`), { status: response.status, body: await response.json() });
  }
  const events = eventsOf(response);
  const [ack] = await events.until((event) => event.message?.method === ACKNOWLEDGED);
  const received: StreamEvent[] = [];
  const ended = events
    .until((event) => {
      received.push(event);
      return event.message?.id === 7;
    })
    .catch(() => received);
  return {
    response,
    honoured: ack.message!.params!.notifications as Record<string, unknown>,
    ackMeta: ack.message!.params!._meta as Record<string, unknown>,
    received,
    updatedUris: () => received.filter((event) => event.message?.method === UPDATED).map((event) => event.message!.params!.uri as string),
    ended,
    close: () => controller.abort(),
  };
}

/** A 2025-era session of the official v1 client, collecting the URIs of the resource updates it is sent. */
async function sessionSubscriber(baseURL: string) {
  const client = new ClientV1({ name: 'e2e-subscriber', version: '1.0.0' });
  const transport = new TransportV1(new URL('/api/mcp', baseURL));
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => void updated.push(notification.params.uri));
  await client.connect(transport);
  return { client, transport, updated };
}

const patchTask = (baseURL: string, id: number, body: object, headers: Record<string, string> = {}) =>
  fetch(`${baseURL}/api/tasks/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

test.describe('resources from procedures', () => {
  for (const era of eras) {
    test(`${era}: listed with their templates, and read as REST answers them (JSON, text, blob)`, async ({ baseURL }) => {
      const client = await resourceClient(era, baseURL!);
      try {
        const listed = await client.listResources();
        const byUri = new Map(listed.map((resource) => [resource.uri, resource]));
        expect(byUri.get(BOARD)).toMatchObject({ name: 'BoardController_getBoard', mimeType: 'application/json', _meta: { 'dev.vovk/tool': 'BoardController_getBoard' } });
        expect(byUri.get('vovk://gateway/api/media/image')).toMatchObject({ mimeType: 'image/png' });
        expect(byUri.has('vovk://gateway/api/users')).toBe(true);
        // Not resources: streams, downloads from outside URLs, per-owner jobs.
        expect([...byUri.keys()].filter((uri) => /stream|from-url|jobs/.test(uri))).toEqual([]);
        const templates = (await client.listTemplates()).map((template) => template.uriTemplate);
        expect(templates).toEqual(expect.arrayContaining(['vovk://gateway/api/tasks/{id}', 'vovk://gateway/api/users/{id}']));

        const [board] = await client.read(BOARD);
        expect(board).toMatchObject({ uri: BOARD, mimeType: 'application/json' });
        expect(JSON.parse(board.text!)).toEqual(await (await fetch(`${baseURL}/api/board`)).json());
        const [user] = await client.read(userUri(2));
        expect(JSON.parse(user.text!)).toEqual(await (await fetch(`${baseURL}/api/users/2`)).json());
        const [greeting] = await client.read('vovk://gateway/api/text/greeting');
        expect(greeting).toEqual({ uri: 'vovk://gateway/api/text/greeting', mimeType: 'text/plain', text: 'Hello, world!' });
        const [image] = await client.read('vovk://gateway/api/media/image');
        const png = Buffer.from(await (await fetch(`${baseURL}/api/media/image`)).arrayBuffer());
        expect(image).toMatchObject({ mimeType: 'image/png' });
        expect(Buffer.from(image.blob!, 'base64').equals(png)).toBe(true);
      } finally {
        await client.close();
      }
    });
  }

  test('an unknown URI or id is the spec’s resource-not-found in both eras: -32602 with data.uri (SEP-2164)', async ({ baseURL }) => {
    for (const uri of [taskUri(999_999), 'vovk://gateway/api/tasks/not-a-number', 'vovk://gateway/api/nothing-here']) {
      const modern = await fetch(`${baseURL}/api/mcp`, {
        method: 'POST',
        headers: { ...modernHeaders('resources/read'), 'Mcp-Name': uri },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri, _meta: modernEnvelope() } }),
      });
      const answer = (await modern.json()) as { error?: { code: number; data?: { uri?: string } } };
      expect(answer.error, uri).toMatchObject({ code: -32602, data: { uri } });
      const legacy = await fetch(`${baseURL}/api/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, 'MCP-Protocol-Version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } }),
      });
      const [answered] = await readEvents(legacy, (event) => event.message?.id === 1);
      expect(answered.message, uri).toMatchObject({ error: { code: -32602, data: { uri } } });
    }
  });

  test('the OpenAPI document names each resource’s URI', async ({ baseURL }) => {
    const document = (await (await fetch(`${baseURL}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(document.paths['/api/tasks/{id}'].get['x-mcp-resource']).toEqual({
      uri: 'vovk://gateway/api/tasks/{id}',
      changedBy: { tasks: 'id' },
      ttlMs: 5000,
      complete: { id: 'TaskController_completeTaskId' },
    });
    expect(document.paths['/api/tasks/{id}'].patch['x-mcp-resource']).toBeUndefined();
  });
});

test.describe('subscriptions fed by data changes (one instance, SQLite)', () => {
  test('a listen stream is acknowledged with the URIs that exist only, and hears exactly the resources a REST write changed', async ({ baseURL }) => {
    const [first, second] = await Promise.all([createTask(baseURL!, 'Watched'), createTask(baseURL!, 'Unrelated')]);
    const stream = await listen(baseURL!, { resourceSubscriptions: [taskUri(first.id), taskUri(second.id), BOARD, taskUri(999_999), 'vovk://gateway/api/nope'] });
    try {
      expect(stream.honoured).toEqual({ resourceSubscriptions: [taskUri(first.id), taskUri(second.id), BOARD] });
      expect(stream.ackMeta['io.modelcontextprotocol/subscriptionId']).toBe(7);
      expect((await patchTask(baseURL!, first.id, { title: 'Watched, renamed' })).status).toBe(200);
      await expect.poll(() => stream.updatedUris().sort()).toEqual([BOARD, taskUri(first.id)].sort());
      // Nothing more comes for the task that did not change (the board's one notification told of the write).
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(stream.updatedUris().filter((uri) => uri === taskUri(second.id))).toEqual([]);
      expect(stream.received.filter((event) => event.message?.method === UPDATED).every((event) => event.message?.params?._meta)).toBe(true);
    } finally {
      stream.close();
    }
  });

  test('a listen filter whose resourceSubscriptions is no list of strings is refused with -32602', async ({ baseURL }) => {
    await expect(listen(baseURL!, { resourceSubscriptions: BOARD })).rejects.toMatchObject({ status: 400, body: { error: { code: -32602 } } });
    await expect(listen(baseURL!, { resourceSubscriptions: [BOARD, 7] })).rejects.toMatchObject({ status: 400, body: { error: { code: -32602 } } });
  });

  test('a listen stream whose URIs all are left out is closed at once with the closing result', async ({ baseURL }) => {
    const stream = await listen(baseURL!, { resourceSubscriptions: [taskUri(999_998)] });
    expect(stream.honoured).toEqual({ resourceSubscriptions: [] });
    const events = await stream.ended!;
    expect(events.at(-1)?.message).toMatchObject({ id: 7, result: { resultType: 'complete' } });
  });

  test('2025-11-25: resources/subscribe in a session, the update on its standalone stream; an unknown URI is not found (-32602)', async ({ baseURL }) => {
    const task = await createTask(baseURL!, 'Watched over a session');
    const { client, transport, updated } = await sessionSubscriber(baseURL!);
    try {
      expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
      await client.subscribeResource({ uri: taskUri(task.id) });
      await expect(client.subscribeResource({ uri: taskUri(999_999) })).rejects.toMatchObject({ code: -32602 });
      // The standalone stream is open once the client's GET went out; a write then reaches it.
      await expect.poll(async () => (await patchTask(baseURL!, task.id, { description: `poke ${Date.now()}` }), updated.length), { intervals: [500] }).toBeGreaterThan(0);
      expect(new Set(updated)).toEqual(new Set([taskUri(task.id)]));
      await client.unsubscribeResource({ uri: taskUri(task.id) });
      const heard = updated.length;
      await patchTask(baseURL!, task.id, { description: 'after unsubscribing' });
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(updated.length).toBe(heard);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});

test.describe('subscriptions across two instances on one PostgreSQL', () => {
  test.describe.configure({ mode: 'serial' });
  let database: TestDatabase;
  let servers: RunningServer[];
  test.beforeAll(async () => {
    database = await createTestDatabase('postgres');
    servers = await Promise.all([0, 1].map((index) => startServer(e2ePort + 280 + index, database.env, `test-results/resources-pg-${index}.log`)));
  });
  test.afterAll(async () => {
    await Promise.all(servers?.map((server) => server.stop()) ?? []);
    await database?.drop();
  });

  test('a write on one instance reaches a listen stream and a 2025 session held by the other; a subscriber of another task hears nothing', async () => {
    const [writer, holder] = servers.map((server) => server.baseURL);
    const [watched, other] = await Promise.all([createTask(writer, 'Across'), createTask(writer, 'Elsewhere')]);
    const stream = await listen(holder, { resourceSubscriptions: [taskUri(watched.id)] });
    const unrelated = await listen(holder, { resourceSubscriptions: [taskUri(other.id)] });
    const { client, transport, updated } = await sessionSubscriber(holder);
    try {
      await client.subscribeResource({ uri: taskUri(watched.id) });
      await new Promise((resolve) => setTimeout(resolve, 500)); // the session's standalone GET stream opens
      expect((await patchTask(writer, watched.id, { title: 'Across, renamed' })).status).toBe(200);
      await expect.poll(() => stream.updatedUris()).toEqual([taskUri(watched.id)]);
      await expect.poll(() => updated).toEqual([taskUri(watched.id)]);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(unrelated.updatedUris()).toEqual([]);
    } finally {
      stream.close();
      unrelated.close();
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });
});

test.describe('who may subscribe, and for how long (OAuth)', () => {
  const stopped = stoppedAfterAll();

  test('a URI the caller may not read is refused (read: 403; listen: left out of the acknowledgement); a listen stream and a session’s standalone stream end when their token expires', async () => {
    const { as, gateway, resource } = stopped(await startOAuthGateway(e2ePort + 282, { accessTokenTtlSeconds: 4 }));
    const writeOnly = await scriptToken(as, resource, 'gateway:write');
    const read = await fetch(`${gateway.baseURL}/api/mcp`, {
      method: 'POST',
      headers: { ...modernHeaders('resources/read'), 'Mcp-Name': BOARD, authorization: `Bearer ${writeOnly}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: BOARD, _meta: modernEnvelope() } }),
    });
    expect(read.status).toBe(403);
    expect(read.headers.get('www-authenticate')).toContain('insufficient_scope');
    const refused = await listen(gateway.baseURL, { resourceSubscriptions: [BOARD], toolsListChanged: true }, { headers: { authorization: `Bearer ${writeOnly}` } });
    expect(refused.honoured).toEqual({ toolsListChanged: true, resourceSubscriptions: [] });
    refused.close();

    // A 2025-era session opened with a reader's token (minted now: it lives 4 s), whose standalone stream ends at its
    // expiry too.
    const reader = await scriptToken(as, resource, 'gateway:read');
    const auth = { authorization: `Bearer ${reader}` };
    const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'e2e-expiring', version: '1.0.0' } };
    const started = await fetch(`${gateway.baseURL}/api/mcp`, {
      method: 'POST',
      headers: { ...mcpHeaders, ...auth },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize }),
    });
    const sessionId = started.headers.get('mcp-session-id')!;
    const onSession = { ...mcpHeaders, ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await fetch(`${gateway.baseURL}/api/mcp`, { method: 'POST', headers: onSession, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const standalone = await fetch(`${gateway.baseURL}/api/mcp`, { headers: { ...onSession, accept: 'text/event-stream' } });
    expect(standalone.headers.get('content-type')).toContain('text/event-stream');
    const standaloneEnded = standalone.text().then(() => Date.now());

    const startedAt = Date.now();
    const stream = await listen(gateway.baseURL, { resourceSubscriptions: [BOARD] }, { headers: auth });
    expect(stream.honoured).toEqual({ resourceSubscriptions: [BOARD] });
    const events = await stream.ended!;
    expect(events.at(-1)?.message).toMatchObject({ id: 7, result: { resultType: 'complete' } });
    // Ended by the expiry (4 s after the token was minted), not before it and not long after.
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(Date.now() - startedAt).toBeGreaterThan(1_000);
    expect((await standaloneEnded) - startedAt).toBeLessThan(15_000);
    // Reconnecting with the expired token is refused.
    expect((await fetch(`${gateway.baseURL}/api/mcp`, { headers: { ...onSession, accept: 'text/event-stream' } })).status).toBe(401);
  });
});

test.describe('per-caller shares', () => {
  const stopped = stoppedAfterAll();

  test('listen streams and subscriptions beyond a caller’s share are refused, another caller’s are untouched and working', async () => {
    const env = { MCP_MAX_LISTEN_STREAMS_PER_CALLER: '2', MCP_MAX_SUBSCRIPTIONS_PER_CALLER: '3' };
    const server = stopped(await startServer(e2ePort + 284, env, 'test-results/resources-shares.log'));
    const base = server.baseURL;
    const tasks = await Promise.all([1, 2, 3].map((n) => createTask(base, `Share ${n}`)));
    const greedy = '127.0.0.2';
    const first = await listen(base, { resourceSubscriptions: [BOARD, ...tasks.map((task) => taskUri(task.id))] }, { from: greedy });
    // The share goes to the first URIs, in the request's order.
    expect(first.honoured).toEqual({ resourceSubscriptions: [BOARD, taskUri(tasks[0].id), taskUri(tasks[1].id)] });
    const overShare = await listen(base, { resourceSubscriptions: [userUri(1)] }, { from: greedy });
    expect(overShare.honoured).toEqual({ resourceSubscriptions: [] });
    await overShare.ended; // closed at once: its place among the caller's streams is given back
    const second = await listen(base, { toolsListChanged: true }, { from: greedy });
    expect(second.honoured).toEqual({ toolsListChanged: true });
    await expect(listen(base, { toolsListChanged: true }, { from: greedy })).rejects.toMatchObject({
      status: 429,
      body: { error: { message: expect.stringContaining('MCP_MAX_LISTEN_STREAMS_PER_CALLER') } },
    });

    const other = await listen(base, { resourceSubscriptions: [BOARD, userUri(1)] }, { from: '127.0.0.3' });
    try {
      expect(other.honoured).toEqual({ resourceSubscriptions: [BOARD, userUri(1)] });
      expect((await patchTask(base, tasks[2].id, { title: 'Moved on' })).status).toBe(200);
      await expect.poll(() => other.updatedUris()).toEqual([BOARD]);
      await expect.poll(() => first.updatedUris()).toEqual([BOARD]);
      // Once the greedy caller closes a stream, it may open one again.
      second.close();
      await expect.poll(async () => (await listen(base, { toolsListChanged: true }, { from: greedy }).catch(() => undefined))?.response.status).toBe(200);
    } finally {
      for (const stream of [first, other]) stream.close();
    }
  });
});
