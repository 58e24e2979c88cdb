// The HTTP+SSE transport of revision 2024-11-05 (`GET /api/sse`, `POST /api/message?sessionId=…`) end to end: the SDK
// v1 SSEClientTransport, LangChain's `transport: 'sse'` and `mcp-remote --transport sse-only` list and call; the wire's
// rules (endpoint first, 202, heartbeats, bad and ended ids); every guard on both routes; per-caller bounds; a stream
// on one instance whose messages reach another (PostgreSQL); SIGTERM during an open stream.
import http from 'node:http';
import path from 'node:path';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../test/support/databases';
import { type GatewayClient, connect, type ElicitationAnswer, type Progress, sseEra, type ToolResult } from './support/mcp';
import { SignedInUser, scriptToken, startOAuthGateway } from './support/oauth';
import { createTask, restStatus } from './support/rest-data';
import { e2ePort, type RunningServer, startServer, stoppedAfterAll } from './support/server';
import { countsRunning } from './support/tasks';

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const COUNT = 'FixtureController_countSlowly';

/** An open event stream read by hand: its response, and its events (comments included) as they come. */
interface RawStream {
  response: Response;
  /** Every event so far: `{ event, data }` for events, `{ comment }` for comment lines. */
  events: Array<{ event?: string; data?: string; comment?: string }>;
  /** The session the endpoint event named (once it came). */
  sessionId(): Promise<string>;
  /** Whether the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET /api/sse` of `baseURL` with `headers` and reads its events in the background. */
async function openStream(baseURL: string, headers: Record<string, string> = {}, query = ''): Promise<RawStream> {
  const controller = new AbortController();
  const response = await fetch(`${baseURL}/api/sse${query}`, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: RawStream['events'] = [];
  const ended = (async () => {
    if (!response.ok || !response.body) return;
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (block.startsWith(':')) events.push({ comment: block.slice(1).trim() });
          else {
            const field = (name: string) => block.match(new RegExp(`^${name}: ?(.*)$`, 'm'))?.[1];
            events.push({ event: field('event'), data: field('data') });
          }
        }
      }
    } catch {
      // aborted by the test
    }
  })();
  return {
    response,
    events,
    sessionId: async () => {
      await expect.poll(() => events.some((event) => event.event === 'endpoint')).toBe(true);
      return new URL(events.find((event) => event.event === 'endpoint')!.data!, baseURL).searchParams.get('sessionId')!;
    },
    ended,
    close: () => controller.abort(),
  };
}

/** POSTs one JSON-RPC message (or any body) to `POST /api/message` of `baseURL`. */
const postMessage = (baseURL: string, query: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${baseURL}/api/message${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const initialize = (id = 0) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'e2e-raw-sse', version: '1.0.0' } },
});

/** The JSON-RPC error of an answer: its status and error. */
async function errorOf(response: Response) {
  return { status: response.status, error: ((await response.json()) as { error: { code: number; message: string } }).error };
}

/** An SSE client (SDK v1) that answers each confirmation with `action`, keeping the questions. */
async function answeringOverSse(baseURL: string, action: ElicitationAnswer['action'], alsoVia: string[] = []) {
  const questions: string[] = [];
  const elicit = ({ message }: { message: string }): ElicitationAnswer => {
    questions.push(message);
    return action === 'accept' ? { action, content: { confirm: true } } : { action };
  };
  return Object.assign(await connect(sseEra, baseURL, { elicit, alsoVia }), { questions });
}

/** Calls, lists and confirms through `client`: what every client kind is checked for. */
async function expectServed(client: GatewayClient, baseURL: string) {
  const names = (await client.listTools()).map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(['UserController_getUser', 'MediaController_getImage', 'TaskController_deleteTask']));
  expect((await client.callTool('UserController_getUser', { params: { id: 1 } })).structuredContent).toMatchObject({ id: 1 });
  const image = await client.callTool('MediaController_getImage');
  expect(image.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
  expect(image.content[0].data).toBe(Buffer.from(await (await fetch(`${baseURL}/api/media/image`)).arrayBuffer()).toString('base64'));
  expect(await client.callTool('UserController_getUser', { params: { id: 424242 } })).toEqual({
    content: [{ type: 'text', text: 'User 424242 not found' }],
    isError: true,
  });
  const masked = await client.callTool('FixtureController_throwError');
  expect(masked.content).toEqual([{ type: 'text', text: 'Internal server error' }]);
  expect(masked.isError).toBe(true);
}

test.describe('one server', () => {
  test('the SDK v1 SSEClientTransport: lists, calls (JSON, image, error, masked error), sees progress, cancels', async ({ baseURL }) => {
    const client = await connect(sseEra, baseURL!);
    try {
      expect(client.sessionId).toMatch(SESSION_ID);
      await expectServed(client, baseURL!);
      const seen: Progress[] = [];
      const counted = await client.callTool(COUNT, { body: { to: 3, stepMs: 150 } }, { onprogress: (progress) => void seen.push(progress) });
      expect(counted.structuredContent).toEqual({ counted: 3 });
      // Progress is throttled (one update per interval): the first step's comes at once, long before the result.
      expect(seen[0]).toMatchObject({ progress: 1, total: 3 });

      const label = `sse-cancel-${Date.now()}`;
      const controller = new AbortController();
      const call = client.callTool(COUNT, { body: { to: 1000, stepMs: 50, label } }, { signal: controller.signal, onprogress: () => controller.abort('enough') });
      await expect(call).rejects.toThrow();
      await expect.poll(() => countsRunning(baseURL!, label), { timeout: 10_000 }).toBe(0);
      // The session goes on after the cancel.
      await client.ping();
    } finally {
      await client.close();
    }
  });

  for (const [answer, kept] of [
    ['accept', false],
    ['decline', true],
  ] as const) {
    test(`a destructive tool asks over the stream first: ${answer} → ${kept ? 'kept' : 'deleted'}`, async ({ baseURL }) => {
      const client = await answeringOverSse(baseURL!, answer);
      try {
        const task = await createTask(baseURL!, `SSE confirm ${answer}`);
        const result = await client.callTool('TaskController_deleteTask', { params: { id: task.id } });
        expect(client.questions).toEqual([`Delete the task “${task.title}” (id ${task.id})? It cannot be undone.`]);
        expect(result.isError ?? false).toBe(kept);
        expect((await restStatus(baseURL!, `/api/tasks/${task.id}`)) === 200).toBe(kept);
      } finally {
        await client.close();
      }
    });
  }

  test("LangChain's adapters with transport 'sse' list and call", async ({ baseURL }) => {
    const client = new MultiServerMCPClient({
      mcpServers: { gateway: { transport: 'sse', url: `${baseURL}/api/sse` } },
      prefixToolNameWithServerName: false,
    });
    try {
      const tools = await client.getTools();
      const getUser = tools.find((tool) => tool.name === 'UserController_getUser');
      expect(getUser).toBeDefined();
      expect(JSON.stringify(await getUser!.invoke({ params: { id: 1 } }))).toContain('"id\\":1');
      const failing = tools.find((tool) => tool.name === 'FixtureController_throwError')!;
      await expect(failing.invoke({})).rejects.toThrow(/Internal server error/);
    } finally {
      await client.close();
    }
  });

  test('mcp-remote --transport sse-only bridges a stdio client to the stream', async ({ baseURL }) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve('node_modules/mcp-remote/dist/proxy.js'), `${baseURL}/api/sse`, '--transport', 'sse-only', '--allow-http'],
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (chunk) => void (log += String(chunk)));
    const client = new ClientV1({ name: 'e2e-mcp-remote', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('UserController_getUser');
      const result = (await client.callTool({ name: 'UserController_getUser', arguments: { params: { id: 1 } } })) as ToolResult;
      expect(result.structuredContent).toMatchObject({ id: 1 });
      // It went over HTTP+SSE, not Streamable HTTP.
      expect(log).toMatch(/SSE/i);
    } finally {
      await client.close();
    }
  });

  test('the wire: endpoint first (relative, with the session), 202 per message, every answer on the stream', async ({ baseURL }) => {
    const stream = await openStream(baseURL!);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toContain('text/event-stream');
      const sessionId = await stream.sessionId();
      expect(sessionId).toMatch(SESSION_ID);
      expect(stream.events[0]).toEqual({ event: 'endpoint', data: `/api/message?sessionId=${sessionId}` });
      const accepted = await postMessage(baseURL!, `?sessionId=${sessionId}`, initialize(7));
      expect(accepted.status).toBe(202);
      await expect.poll(() => stream.events.some((event) => event.data?.includes('"id":7'))).toBe(true);
      const answer = JSON.parse(stream.events.find((event) => event.data?.includes('"id":7'))!.data!);
      expect(answer.result.serverInfo.name).toBeTruthy();
      // Not JSON: a parse error, not a crash.
      expect((await postMessage(baseURL!, `?sessionId=${sessionId}`, '{not json')).status).toBe(400);
    } finally {
      stream.close();
    }
  });

  test('bad session ids: none → 400, unknown or malformed → 404, ended (its stream closed) → 404; JSON-RPC bodies', async ({ baseURL }) => {
    const missing = await errorOf(await postMessage(baseURL!, '', initialize()));
    expect(missing.status).toBe(400);
    expect(missing.error.message).toMatch(/sessionId/);
    for (const query of [`?sessionId=${crypto.randomUUID()}`, '?sessionId=not-a-session', '?sessionId=']) {
      const unknown = await errorOf(await postMessage(baseURL!, query, initialize()));
      expect(unknown, query).toEqual({ status: query.endsWith('=') ? 400 : 404, error: expect.objectContaining({ code: expect.any(Number) }) });
    }
    const stream = await openStream(baseURL!);
    const sessionId = await stream.sessionId();
    expect((await postMessage(baseURL!, `?sessionId=${sessionId}`, initialize())).status).toBe(202);
    stream.close();
    await expect.poll(async () => (await postMessage(baseURL!, `?sessionId=${sessionId}`, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404);
    // A streamable-HTTP request naming it finds no session either.
    const named = await fetch(`${baseURL}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(named.status).toBe(404);
  });

  test('toolsets and read-only by query or header on the stream: the session keeps that view', async ({ baseURL }) => {
    const byQuery = await connect(sseEra, `${baseURL}/api/sse?toolsets=UserController&readonly=1`);
    const byHeader = await connect(sseEra, baseURL!, { headers: { 'X-MCP-Toolsets': 'UserController' } });
    try {
      const queried = (await byQuery.listTools()).map((tool) => tool.name);
      expect(queried).toContain('UserController_getUser');
      expect(queried).not.toContain('UserController_deleteUser');
      expect(queried.every((name) => name.startsWith('UserController_'))).toBe(true);
      const headed = (await byHeader.listTools()).map((tool) => tool.name);
      expect(headed).toContain('UserController_deleteUser');
      expect(headed.every((name) => name.startsWith('UserController_'))).toBe(true);
      const refused = await byQuery.callTool('TaskController_listTasks').catch((error: Error) => error);
      expect(String(refused)).toMatch(/TaskController/);
    } finally {
      await Promise.all([byQuery.close(), byHeader.close()]);
    }
    const bad = await fetch(`${baseURL}/api/sse?toolsets=NoSuchToolset`);
    expect(bad.status).toBe(400);
  });
});

/** The status of a request to `url` sent with the Host header `host` (fetch cannot set it). */
const statusWithHost = (url: string, method: string, host: string) =>
  new Promise<number>((resolve, reject) => {
    const request = http.request(url, { method, headers: { host, 'content-type': 'application/json' } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on('error', reject);
    request.end(method === 'POST' ? JSON.stringify(initialize()) : undefined);
  });

test.describe('guards and bounds', () => {
  const stopped = stoppedAfterAll();
  let server: RunningServer;
  const BURST = 30;
  test.beforeAll(async () => {
    server = stopped(
      await startServer(
        e2ePort + 380,
        {
          GATEWAY_ALLOWED_HOSTS: 'localhost',
          GATEWAY_RATE_LIMIT: '0.001',
          GATEWAY_RATE_LIMIT_BURST: String(BURST),
          MCP_MAX_BODY_BYTES: '2048',
          MCP_SSE_HEARTBEAT_SECONDS: '1',
          MCP_MAX_SESSIONS_PER_CALLER: '2',
        },
        'test-results/sse-guards.log',
      ),
    );
  });

  test('Host and Origin are checked on both routes (403); a body over MCP_MAX_BODY_BYTES is 413; heartbeats come when idle', async () => {
    const base = server.baseURL;
    expect(await statusWithHost(`${base}/api/sse`, 'GET', 'evil.example')).toBe(403);
    expect(await statusWithHost(`${base}/api/message?sessionId=${crypto.randomUUID()}`, 'POST', 'evil.example')).toBe(403);
    expect((await fetch(`${base}/api/sse`, { headers: { origin: 'http://evil.example' } })).status).toBe(403);
    const stream = await openStream(base);
    try {
      const sessionId = await stream.sessionId();
      expect((await postMessage(base, `?sessionId=${sessionId}`, initialize(), { origin: 'http://evil.example' })).status).toBe(403);
      const large = { ...initialize(), params: { ...initialize().params, padding: 'x'.repeat(4096) } };
      expect((await postMessage(base, `?sessionId=${sessionId}`, large)).status).toBe(413);
      await expect.poll(() => stream.events.filter((event) => event.comment === 'heartbeat').length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    } finally {
      stream.close();
    }
  });

  test('per caller: a third stream ends the caller’s longest-unused one (its id then 404)', async () => {
    const base = server.baseURL;
    const streams = [await openStream(base), await openStream(base)];
    const first = await streams[0].sessionId();
    await streams[1].sessionId();
    streams.push(await openStream(base));
    try {
      await streams[2].sessionId();
      await streams[0].ended;
      expect((await postMessage(base, `?sessionId=${first}`, initialize())).status).toBe(404);
      expect((await postMessage(base, `?sessionId=${await streams[2].sessionId()}`, initialize())).status).toBe(202);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  test('GATEWAY_RATE_LIMIT counts the stream and its messages: 429 with Retry-After on either route', async () => {
    const base = server.baseURL;
    const statuses: number[] = [];
    for (let sent = 0; sent <= BURST + 1; sent++) {
      const response = await postMessage(base, `?sessionId=${crypto.randomUUID()}`, initialize());
      statuses.push(response.status);
    }
    expect(statuses).toContain(429);
    const stream = await fetch(`${base}/api/sse`);
    expect(stream.status).toBe(429);
    expect(stream.headers.get('retry-after')).toBeTruthy();
  });
});

test('OAuth on both routes: 401 challenges, a read-only token gets 403 insufficient_scope on a write, another caller 404', async () => {
  test.setTimeout(60_000);
  const setup = await startOAuthGateway(e2ePort + 386);
  try {
    const base = setup.gateway.baseURL;
    for (const response of [await fetch(`${base}/api/sse`), await postMessage(base, `?sessionId=${crypto.randomUUID()}`, initialize())]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="/);
    }
    const reader = { authorization: `Bearer ${await scriptToken(setup.as, setup.resource, 'gateway:read')}` };
    const client = await connect(sseEra, base, { headers: reader });
    try {
      expect((await client.listTools()).length).toBeGreaterThan(5);
      const refused = await client.callTool('TaskController_deleteTask', { params: { id: 1 } }).catch((error: Error) => error);
      expect(String(refused)).toMatch(/403/);
      // The same principal with another token goes on (202); Ada, who signed in, is another principal: 404.
      const renewed = { authorization: `Bearer ${await scriptToken(setup.as, setup.resource, 'gateway:read')}` };
      expect((await postMessage(base, `?sessionId=${client.sessionId}`, { jsonrpc: '2.0', id: 99, method: 'ping' }, renewed)).status).toBe(202);
      const user = new SignedInUser(setup.as, `${base}/oauth/callback`);
      const transport = new TransportV1(new URL('/api/mcp', base), { authProvider: user });
      await expect(new ClientV1({ name: 'e2e-ada', version: '1.0.0' }).connect(transport)).rejects.toThrow(/unauthorized/i);
      await transport.finishAuth((await user.signIn()).get('code')!);
      const ada = { authorization: `Bearer ${user.tokens()!.access_token}` };
      expect((await postMessage(base, `?sessionId=${client.sessionId}`, { jsonrpc: '2.0', id: 100, method: 'ping' }, ada)).status).toBe(404);
    } finally {
      await client.close();
    }
  } finally {
    await setup.stop();
  }
});

test('SIGTERM during an open stream: the call it acknowledged is answered, then the stream ends', async () => {
  const server = await startServer(e2ePort + 387, {}, 'test-results/sse-sigterm.log');
  try {
    const client = await connect(sseEra, server.baseURL);
    const seen: Progress[] = [];
    const call = client.callTool(COUNT, { body: { to: 20, stepMs: 100 } }, { onprogress: (progress) => void seen.push(progress) });
    await expect.poll(() => seen.length).toBeGreaterThan(0);
    process.kill(server.pid, 'SIGTERM');
    expect((await call).structuredContent).toEqual({ counted: 20 });
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await client.close();
  } finally {
    await server.stop();
  }
});

test.describe('two instances on one PostgreSQL', () => {
  test.describe.configure({ mode: 'serial' });
  let database: TestDatabase;
  let servers: RunningServer[];
  const ports = [e2ePort + 381, e2ePort + 382];

  test.beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const env = { ...database.env, GATEWAY_STATE_SECRET: 'sse-e2e-shared-secret-of-32-bytes-or-more!' };
    servers = await Promise.all(ports.map((port, index) => startServer(port, env, `test-results/sse-pg-${index}.log`)));
  });
  test.afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  test('a stream on A whose messages alternate between A and B: list, call, progress, a confirmation', async () => {
    const [a, b] = servers.map((server) => server.baseURL);
    const client = await answeringOverSse(a, 'accept', [b]);
    try {
      await expectServed(client, a);
      const seen: Progress[] = [];
      await client.callTool(COUNT, { body: { to: 3, stepMs: 150 } }, { onprogress: (progress) => void seen.push(progress) });
      expect(seen[0]).toMatchObject({ progress: 1, total: 3 });
      const task = await createTask(a, 'SSE relayed confirm');
      expect((await client.callTool('TaskController_deleteTask', { params: { id: task.id } })).isError ?? false).toBe(false);
      expect(client.questions).toHaveLength(1);
      expect(await restStatus(a, `/api/tasks/${task.id}`)).toBe(404);
      // The stream stayed on A; messages went to both.
      expect(client.sent[0]).toBe(`GET ${ports[0]}`);
      expect(new Set(client.sent.filter((sent) => sent.startsWith('POST')))).toEqual(new Set([`POST ${ports[0]}`, `POST ${ports[1]}`]));
      // A foreign id on B: 404 after asking the directory.
      expect((await postMessage(b, `?sessionId=${crypto.randomUUID()}`, initialize())).status).toBe(404);
    } finally {
      await client.close();
    }
  });
});
