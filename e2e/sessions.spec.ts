// 2025-era sessions end to end with the SDK v1 client: destructive tools confirm through elicitation over a session,
// the session lane's rules (unknown, malformed, ended, expired, foreign, too many), resumability, the principal a
// session is bound to, and two instances on one PostgreSQL relaying a session's requests to the one holding it — a 503
// from the relay only when the holder did nothing.
import { randomUUID } from 'node:crypto';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../test/support/databases';
import { eventsOf, mcpHeaders, rawRequest, readEvents, type StreamEvent, toolCall } from './support/json-rpc';
import { connect, type ElicitationAnswer, type GatewayClient } from './support/mcp';
import { SignedInUser, scriptToken, startOAuthGateway } from './support/oauth';
import { createTask, restStatus, type Task } from './support/rest-data';
import { e2ePort, type RunningServer, startServer } from './support/server';

/** The revision raw requests speak: the newest of the 2025 era (its streams start with a priming event, resumable). */
const PROTOCOL = '2025-11-25';

const sessionHeaders = (sessionId: string, extra: Record<string, string> = {}) => ({
  ...mcpHeaders,
  'mcp-session-id': sessionId,
  'mcp-protocol-version': PROTOCOL,
  ...extra,
});

/** Starts a session with raw requests (initialize, then initialized); returns its id, or the refusal. */
async function startRawSession(
  baseURL: string,
  { capabilities = {}, headers = {} }: { capabilities?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<{ sessionId?: string; response: Response; body: string }> {
  const initialize = { protocolVersion: PROTOCOL, capabilities, clientInfo: { name: 'e2e-raw', version: '1.0.0' } };
  const response = await fetch(`${baseURL}/api/mcp`, {
    method: 'POST',
    headers: { ...mcpHeaders, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize }),
  });
  const body = await response.text();
  const sessionId = response.headers.get('mcp-session-id') ?? undefined;
  if (sessionId) {
    const initialized = await fetch(`${baseURL}/api/mcp`, {
      method: 'POST',
      headers: sessionHeaders(sessionId, headers),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(initialized.status).toBe(202);
  }
  return { sessionId, response, body };
}

/** POSTs a JSON-RPC message on a session. */
const postOnSession = (baseURL: string, sessionId: string, message: unknown, init: RequestInit = {}) =>
  fetch(`${baseURL}/api/mcp`, { method: 'POST', headers: sessionHeaders(sessionId), body: JSON.stringify(message), ...init });

/** The status of a request on a session, its answer read to the end. */
async function statusOn(baseURL: string, sessionId: string, message: unknown): Promise<number> {
  const response = await postOnSession(baseURL, sessionId, message);
  await response.text();
  return response.status;
}

const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });


const taskStatus = (baseURL: string, id: number) => restStatus(baseURL, `/api/tasks/${id}`);

/** Deletes a task it creates through `session`; returns the tool result and whether the task is still there. */
async function deleteOverSession(session: GatewayClient, restURL: string, title: string) {
  const task = await createTask(restURL, title);
  const result = await session.callTool('TaskController_deleteTask', { params: { id: task.id } });
  return { task, result, kept: (await taskStatus(restURL, task.id)) === 200 };
}

/** A session client (SDK v1) that is asked before deletes and answers with `action`; it keeps every question. */
type Asked = GatewayClient & { questions: string[] };

/** A v1 client on a session, answering every confirmation with `action`; requests alternate over `baseURLs`. */
async function answering(baseURLs: string[], action: ElicitationAnswer['action']): Promise<Asked> {
  const questions: string[] = [];
  const elicit = ({ message }: { message: string }): ElicitationAnswer => {
    questions.push(message);
    return action === 'accept' ? { action, content: { confirm: true } } : { action };
  };
  const [first, ...alsoVia] = baseURLs;
  return Object.assign(await connect('sdk-v1 (2025 era)', first, { elicit, alsoVia }), { questions });
}

/** A plain v1 client (no elicitation) on a session. */
const plainSession = (baseURL: string) => connect('sdk-v1 (2025 era)', baseURL);

test.describe('one server', () => {
  test('a v1 client with elicitation is asked first: decline or cancel keeps the task (isError says so), accept deletes it', async ({
    baseURL,
  }) => {
    for (const [answer, kept, said] of [
      ['decline', true, /declined/],
      ['cancel', true, /cancelled/],
      ['accept', false, undefined],
    ] as const) {
      const session = await answering([baseURL!], answer);
      try {
        const { task, result, kept: stillThere } = await deleteOverSession(session, baseURL!, `Session confirm ${answer}`);
        expect(session.questions).toEqual([`Delete the task “${task.title}” (id ${task.id})? It cannot be undone.`]);
        expect(stillThere, answer).toBe(kept);
        expect(result.isError ?? false, answer).toBe(kept);
        if (said) expect(result.content[0].text).toMatch(said);
        if (said) expect(result.content[0].text).toContain('nothing was changed');
      } finally {
        await session.close();
      }
    }
  });

  test('a v1 client without elicitation deletes without a question; REST DELETE is unchanged', async ({ baseURL }) => {
    const session = await plainSession(baseURL!);
    try {
      expect(session.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const { result, kept } = await deleteOverSession(session, baseURL!, `Session plain delete `);
      expect(result.isError ?? false).toBe(false);
      expect(kept).toBe(false);
    } finally {
      await session.close();
    }
    const { id } = await createTask(baseURL!, 'REST delete');
    expect((await fetch(`${baseURL}/api/tasks/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await taskStatus(baseURL!, id)).toBe(404);
  });

  test('ids of no session: unknown ones 404 with a JSON-RPC error, malformed ones 400 — never a 500', async ({ baseURL }) => {
    const unknown = '6f0c8a52-7b1e-4c1e-9d53-2b9e1f3a4c5d';
    for (const method of ['POST', 'GET', 'DELETE']) {
      const response = await fetch(`${baseURL}/api/mcp`, {
        method,
        headers: sessionHeaders(unknown),
        ...(method === 'POST' ? { body: JSON.stringify(listTools(1)) } : {}),
      });
      expect(response.status, method).toBe(404);
      expect(await response.json(), method).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, message: expect.stringMatching(/^Session not found/) } });
    }
    for (const malformed of ['garbage', 'x'.repeat(2000), '../../etc/passwd', "'; DROP TABLE gateway_mcp_events; --", '6F0C8A52-7B1E-4C1E-9D53-2B9E1F3A4C5D']) {
      const response = await postOnSession(baseURL!, malformed, listTools(1));
      expect(response.status, malformed).toBe(400);
      expect((await response.json()).error.message).toContain('Mcp-Session-Id');
    }
  });

  test('DELETE ends a session: its id then answers 404; GET with it opened the standalone stream until then', async ({ baseURL }) => {
    const { sessionId } = await startRawSession(baseURL!);
    const stream = await fetch(`${baseURL}/api/mcp`, { headers: { ...sessionHeaders(sessionId!), accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const ended = stream.text();
    expect((await fetch(`${baseURL}/api/mcp`, { method: 'DELETE', headers: sessionHeaders(sessionId!) })).status).toBe(200);
    await ended; // the standalone stream ends with its session
    expect(await statusOn(baseURL!, sessionId!, listTools(2))).toBe(404);
    expect((await fetch(`${baseURL}/api/mcp`, { headers: { ...sessionHeaders(sessionId!), accept: 'text/event-stream' } })).status).toBe(404);
    expect((await fetch(`${baseURL}/api/mcp`, { method: 'DELETE', headers: sessionHeaders(sessionId!) })).status).toBe(404);
  });

  test('a client that reconnects with Last-Event-ID gets what it missed; one of another session is refused, nothing replayed', async ({
    baseURL,
  }) => {
    const resumed = await resumeAfterDisconnect(baseURL!, baseURL!);
    expect(resumed.kept).toBe(false);

    const { sessionId: other } = await startRawSession(baseURL!);
    const foreign = await fetch(`${baseURL}/api/mcp`, {
      headers: { ...sessionHeaders(other!), accept: 'text/event-stream', 'last-event-id': resumed.lastEventId },
    });
    expect(foreign.status).toBe(400);
    const { error } = await foreign.json();
    expect(error.message).toMatch(/Last-Event-ID header names no event of this session.*nothing to replay/);
  });

  test('a request id still in progress on the session is refused (400), so that answers never cross', async ({ baseURL }) => {
    const { sessionId } = await startRawSession(baseURL!, { capabilities: { elicitation: {} } });
    const { id } = await createTask(baseURL!, 'Duplicate id');
    const deleting = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'TaskController_deleteTask', arguments: { params: { id } } } };
    const call = eventsOf(await postOnSession(baseURL!, sessionId!, deleting));
    const question = (await call.until((event) => event.message?.method === 'elicitation/create')).at(-1)!;

    const reused = await postOnSession(baseURL!, sessionId!, listTools(9));
    expect(reused.status).toBe(400);
    expect((await reused.json()).error.message).toMatch(/same JSON-RPC id is still in progress/);
    expect(await statusOn(baseURL!, sessionId!, listTools(10))).toBe(200);

    const decline = { jsonrpc: '2.0', id: question.message!.id, result: { action: 'decline' } };
    expect((await postOnSession(baseURL!, sessionId!, decline)).status).toBe(202);
    const answer = (await call.until((event) => event.message?.id === 9)).at(-1);
    expect(answer?.message?.result).toMatchObject({ isError: true });
    expect(await taskStatus(baseURL!, id)).toBe(200);
    // Answered: the id may be used again.
    expect(await statusOn(baseURL!, sessionId!, listTools(9))).toBe(200);
  });

  test('sessions are apart: a question of one session never reaches another, and events are not shared', async ({ baseURL }) => {
    const asking = await answering([baseURL!], 'decline');
    const bystander = await answering([baseURL!], 'accept');
    try {
      const { kept } = await deleteOverSession(asking, baseURL!, 'Apart');
      expect(kept).toBe(true);
      expect(asking.questions).toHaveLength(1);
      expect(bystander.questions).toEqual([]);
      expect(asking.sessionId).not.toBe(bystander.sessionId);
    } finally {
      await asking.close();
      await bystander.close();
    }
  });
});

/**
 * Deletes a task over a raw session on `postURL`, accepts the confirmation, and leaves the tool call's stream right
 * after the question; then reconnects on `resumeURL` with the question's event id as Last-Event-ID and reads the
 * result it missed. Returns that event id and whether the task was kept.
 */
async function resumeAfterDisconnect(postURL: string, resumeURL: string) {
  const { sessionId } = await startRawSession(postURL, { capabilities: { elicitation: {} } });
  const { id } = await createTask(postURL, 'Resume');
  const leave = new AbortController();
  const call = await postOnSession(
    postURL,
    sessionId!,
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'TaskController_deleteTask', arguments: { params: { id } } } },
    { signal: leave.signal },
  );
  const events = await readEvents(call, (event) => event.message?.method === 'elicitation/create');
  expect(events[0]).toEqual({ id: expect.stringMatching(/^\d+$/), message: undefined }); // the priming event
  const question = events.at(-1)!;
  leave.abort(); // the client loses the stream
  const answer = await postOnSession(postURL, sessionId!, {
    jsonrpc: '2.0',
    id: question.message!.id,
    result: { action: 'accept', content: { confirm: true } },
  });
  expect(answer.status).toBe(202);
  const resumed = await fetch(`${resumeURL}/api/mcp`, {
    headers: { ...sessionHeaders(sessionId!), accept: 'text/event-stream', 'last-event-id': question.id! },
  });
  expect(resumed.status).toBe(200);
  const replayed: StreamEvent[] = await readEvents(resumed, (event) => event.message?.id === 7);
  expect(replayed.at(-1)?.message?.result).toMatchObject({ structuredContent: { id } });
  return { lastEventId: question.id!, kept: (await taskStatus(postURL, id)) === 200 };
}

test('MCP_MAX_SESSIONS: a flood of initialize gets 503 naming the limit while a session keeps working; idle sessions expire', async () => {
  test.setTimeout(60_000);
  const idleSeconds = 2;
  const env = { MCP_MAX_SESSIONS: '4', MCP_SESSION_IDLE_SECONDS: String(idleSeconds) };
  const server = await startServer(e2ePort + 20, env, 'test-results/sessions-limit.log');
  try {
    // Its standalone GET stream is a request in progress: this session is never idle.
    const existing = await plainSession(server.baseURL);
    const flood = await Promise.all(Array.from({ length: 12 }, () => startRawSession(server.baseURL)));
    const floodEnded = Date.now();
    const started = flood.filter((attempt) => attempt.sessionId);
    const refused = flood.filter((attempt) => !attempt.sessionId);
    expect(started).toHaveLength(3);
    expect(refused).toHaveLength(9);
    for (const { response, body } of refused) {
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(body).error.message).toMatch(/Too many sessions: this server holds its limit of 4 MCP sessions \(MCP_MAX_SESSIONS\)/);
    }
    const sum = await existing.callTool('sum_numbers', { a: 2, b: 3 });
    expect(sum.content).toEqual([{ type: 'text', text: '5' }]);

    // The flood's sessions idle out (2 s): places free up, and their ids answer 404 from then on. A request for one
    // still alive would keep it alive, so they are asked only once every one of them has been idle long enough.
    await expect
      .poll(async () => (await startRawSession(server.baseURL)).response.status, { timeout: 15_000, intervals: [500] })
      .toBe(200);
    const allIdle = floodEnded + idleSeconds * 1000 + 500 - Date.now();
    if (allIdle > 0) await new Promise((resolve) => setTimeout(resolve, allIdle));
    for (const { sessionId } of started) expect(await statusOn(server.baseURL, sessionId!, listTools(3))).toBe(404);
    const later = await existing.callTool('sum_numbers', { a: 1, b: 1 });
    expect(later.content).toEqual([{ type: 'text', text: '2' }]);
    await existing.close();
  } finally {
    await server.stop();
  }
});

test('MCP_MAX_SESSIONS_PER_CALLER: a caller that opens 3× its share keeps only its newest sessions (the others answer 404); other callers are untouched', async () => {
  const share = 3;
  const server = await startServer(e2ePort + 25, { MCP_MAX_SESSIONS_PER_CALLER: String(share), MCP_MAX_SESSIONS: '10' }, 'test-results/sessions-per-caller.log');
  try {
    // Another caller (this test's own address) holds a session with its standalone stream open, and one more idle.
    const other = await plainSession(server.baseURL);
    const otherIdle = await startRawSession(server.baseURL);
    // A script that never ends its sessions, from an address of its own: one initialize after another.
    const initializeFrom = async (localAddress: string) => {
      const initialize = { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'e2e-leaky', version: '1.0.0' } };
      const answer = await rawRequest(`${server.baseURL.replace('localhost', '127.0.0.1')}/api/mcp`, {
        method: 'POST',
        headers: mcpHeaders,
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize }),
        localAddress,
      });
      expect(answer.status).toBe(200);
      return answer.headers['mcp-session-id'] as string;
    };
    const leaky: string[] = [];
    for (let opened = 0; opened < 3 * share; opened++) leaky.push(await initializeFrom('127.0.0.81'));
    // More than MCP_MAX_SESSIONS less the other caller's would have been refused: the script never took the instance.
    const statuses = [];
    for (const sessionId of leaky) statuses.push(await statusOn(server.baseURL, sessionId, listTools(1)));
    expect(statuses).toEqual([...Array(2 * share).fill(404), ...Array(share).fill(200)]);
    expect(await statusOn(server.baseURL, otherIdle.sessionId!, listTools(2))).toBe(200);
    expect((await other.callTool('sum_numbers', { a: 2, b: 3 })).content).toEqual([{ type: 'text', text: '5' }]);
    // The script's client, told 404, starts again: it gets a session (its oldest remaining one goes).
    expect(await initializeFrom('127.0.0.81')).toMatch(/^[0-9a-f-]{36}$/);
    await other.close();
  } finally {
    await server.stop();
  }
});

test('list changes reach 2025 sessions too: notifications/tools/list_changed and prompts/list_changed on the standalone stream', async () => {
  // The conformance fixtures of the test build announce changes (test_trigger_tool_change, test_trigger_prompt_change).
  const server = await startServer(e2ePort + 24, { MCP_CONFORMANCE: '1' }, 'test-results/sessions-list-changes.log');
  try {
    const { sessionId } = await startRawSession(server.baseURL);
    const stream = await fetch(`${server.baseURL}/api/mcp`, { headers: { ...sessionHeaders(sessionId!), accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const events = eventsOf(stream);
    // Announced by a call on the stateless lane: the same instance's bus reaches the session.
    const announce = (tool: string) =>
      fetch(`${server.baseURL}/api/mcp`, {
        method: 'POST',
        headers: mcpHeaders,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }),
      }).then((response) => response.text());
    for (const [tool, method] of [
      ['test_trigger_tool_change', 'notifications/tools/list_changed'],
      ['test_trigger_prompt_change', 'notifications/prompts/list_changed'],
    ]) {
      await announce(tool);
      const seen = await events.until((event) => event.message?.method === method);
      expect(seen.at(-1)?.message?.method).toBe(method);
    }
    expect((await fetch(`${server.baseURL}/api/mcp`, { method: 'DELETE', headers: sessionHeaders(sessionId!) })).status).toBe(200);
  } finally {
    await server.stop();
  }
});

test('a session is bound to the principal that started it: another one gets 404, the same one with a new token goes on', async () => {
  test.setTimeout(60_000);
  const setup = await startOAuthGateway(e2ePort + 23);
  try {
    const base = setup.gateway.baseURL;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const scriptHeaders = bearer(await scriptToken(setup.as, setup.resource, 'gateway:read'));
    const { sessionId } = await startRawSession(base, { headers: scriptHeaders });
    expect(sessionId).toBeTruthy();

    // Ada signs in (authorization code + PKCE, as the SDK drives it): another principal.
    const user = new SignedInUser(setup.as, `${base}/oauth/callback`);
    const transport = new TransportV1(new URL('/api/mcp', base), { authProvider: user });
    await expect(new ClientV1({ name: 'e2e-ada', version: '1.0.0' }).connect(transport)).rejects.toThrow(/unauthorized/i);
    await transport.finishAuth((await user.signIn()).get('code')!);
    const adaHeaders = bearer(user.tokens()!.access_token);

    const asAda = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { ...sessionHeaders(sessionId!), ...adaHeaders }, body: JSON.stringify(listTools(1)) });
    expect(asAda.status).toBe(404);
    const adaDelete = await fetch(`${base}/api/mcp`, { method: 'DELETE', headers: { ...sessionHeaders(sessionId!), ...adaHeaders } });
    expect(adaDelete.status).toBe(404);

    const renewed = bearer(await scriptToken(setup.as, setup.resource, 'gateway:read'));
    const asScript = await fetch(`${base}/api/mcp`, { method: 'POST', headers: { ...sessionHeaders(sessionId!), ...renewed }, body: JSON.stringify(listTools(2)) });
    expect(asScript.status).toBe(200);
    const answer = (await readEvents(asScript, (event) => event.message?.id === 2)).at(-1);
    expect((answer?.message?.result?.tools as unknown[]).length).toBeGreaterThan(5);
  } finally {
    await setup.stop();
  }
});

test.describe('two instances on one PostgreSQL', () => {
  test.describe.configure({ mode: 'serial' });
  let database: TestDatabase;
  let servers: RunningServer[];
  const ports = [e2ePort + 21, e2ePort + 22];
  const env = () => ({ ...database.env, GATEWAY_STATE_SECRET: 'sessions-e2e-shared-secret-of-32-bytes-or-more' });
  const start = (index: number) => startServer(ports[index], env(), `test-results/sessions-pg-${index}.log`);
  const baseURLs = () => servers.map((server) => server.baseURL);

  test.beforeAll(async () => {
    database = await createTestDatabase('postgres');
    servers = await Promise.all([start(0), start(1)]);
  });
  test.afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });

  for (const [answer, kept] of [
    ['accept', false],
    ['decline', true],
  ] as const) {
    test(`a client whose requests alternate between them completes a confirmation: ${answer} → ${kept ? 'kept' : 'deleted'}`, async () => {
      // Twice, shifted by one request: the question travels once from the other instance, once from the holder.
      const calledOn = new Set<string>();
      for (const shift of [0, 1]) {
        const session = await answering(baseURLs(), answer);
        try {
          // The client opens its standalone GET stream after connecting: wait for it, so that the turns are known.
          await expect.poll(() => session.sent.some((sent) => sent.startsWith('GET'))).toBe(true);
          if (shift) await session.ping();
          const before = session.sent.length;
          const { result, kept: stillThere } = await deleteOverSession(session, servers[0].baseURL, `Relayed ${answer} ${shift}`);
          expect(session.questions).toHaveLength(1);
          expect(stillThere).toBe(kept);
          expect(result.isError ?? false).toBe(kept);
          // The call and the answer to the question went to different instances.
          const [call, reply] = session.sent.slice(before).map((sent) => sent.split(' ')[1]);
          expect(call).not.toBe(reply);
          calledOn.add(call);
        } finally {
          await session.close();
        }
      }
      expect(calledOn.size).toBe(2);
    });
  }

  test('large answers travel through the relay too (tools/list), and a client resumes on the other instance', async () => {
    const session = await connect('sdk-v1 (2025 era)', servers[0].baseURL, { alsoVia: [servers[1].baseURL] });
    try {
      const lists = await Promise.all([session.listTools(), session.listTools()]);
      for (const tools of lists) expect(tools.map((tool) => tool.name)).toContain('TaskController_deleteTask');
    } finally {
      await session.close();
    }
    const resumed = await resumeAfterDisconnect(servers[0].baseURL, servers[1].baseURL);
    expect(resumed.kept).toBe(false);
  });

  test('the sessions of an instance that stops (SIGTERM, or killed) answer 404 on the other one', async () => {
    test.setTimeout(60_000);
    const [first, second] = baseURLs();
    const { sessionId: stopping } = await startRawSession(first);
    expect(await statusOn(second, stopping!, listTools(1))).toBe(200);
    await servers[0].stop();
    expect(await statusOn(second, stopping!, listTools(2))).toBe(404);

    servers[0] = await start(0);
    const { sessionId: killed } = await startRawSession(servers[0].baseURL);
    expect(await statusOn(second, killed!, listTools(3))).toBe(200);
    process.kill(servers[0].pid, 'SIGKILL');
    await servers[0].exited;
    const orphan = await postOnSession(second, killed!, listTools(4));
    expect(orphan.status).toBe(404);
    expect((await orphan.json()).error.code).toBe(-32001);
    const { sessionId: survivor } = await startRawSession(second);
    expect(await statusOn(second, survivor!, listTools(5))).toBe(200);
    servers[0] = await start(0);
  });
});

test.describe('a relayed request whose holder is slow: 503 only when nothing was done', () => {
  test.describe.configure({ mode: 'serial' });
  /** The relay's timeout on these two instances (MCP_RELAY_ACK_TIMEOUT_MS): short, so that "later than it" takes seconds. */
  const ACK_TIMEOUT_MS = 1000;
  let database: TestDatabase;
  let holder: RunningServer;
  let relaying: RunningServer;

  test.beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const env = { ...database.env, MCP_RELAY_ACK_TIMEOUT_MS: String(ACK_TIMEOUT_MS) };
    [holder, relaying] = await Promise.all([
      startServer(e2ePort + 260, env, 'test-results/sessions-relay-holder.log'),
      startServer(e2ePort + 261, env, 'test-results/sessions-relay-relaying.log'),
    ]);
  });
  test.afterAll(async () => {
    await Promise.all([holder, relaying].map((server) => server?.stop()));
    await database?.drop();
  });

  /** Creates a task titled `title` as JSON-RPC request `id` of `sessionId`, sent to the instance that does not hold it. */
  const createOverRelay = (sessionId: string, id: number, title: string) =>
    postOnSession(relaying.baseURL, sessionId, toolCall(id, 'TaskController_createTask', { body: { title } }));

  /** How many tasks are titled `title`. */
  const tasksTitled = async (title: string) =>
    ((await (await fetch(`${holder.baseURL}/api/tasks`)).json()) as Task[]).filter((task) => task.title === title).length;

  /** The tool result of request `id` in an SSE answer. */
  const resultOf = async (response: Response, id: number) =>
    (await readEvents(response, (event) => event.message?.id === id)).at(-1)?.message?.result;

  /** Holds a lock that keeps session events from being stored: the holder's answers start (their heads) once it is released. */
  async function lockEvents(): Promise<{ release(): Promise<void> }> {
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE gateway_mcp_events IN SHARE MODE');
    let released: Promise<void> | undefined;
    return { release: () => (released ??= client.query('COMMIT').then(() => client.end())) };
  }

  test('a call whose holder starts answering later than the timeout gets its real answer, carried out once', async () => {
    const { sessionId } = await startRawSession(holder.baseURL);
    const title = `Relayed slowly ${randomUUID()}`;
    const events = await lockEvents();
    let released = false;
    const answered = createOverRelay(sessionId!, 1, title).then((response) => ({ response, afterRelease: released }));
    // Three timeouts long, and shorter than the holder's statement timeout (5 s), which would end the wait by itself.
    await new Promise((resolve) => setTimeout(resolve, 3 * ACK_TIMEOUT_MS));
    released = true;
    await events.release();
    const { response, afterRelease } = await answered;
    expect(response.status).toBe(200);
    expect(afterRelease, 'the answer started only once the lock was released').toBe(true);
    const result = await resultOf(response, 1);
    expect(result?.isError ?? false).toBe(false);
    expect(JSON.stringify(result)).toContain(title);
    expect(await tasksTitled(title)).toBe(1);
  });

  test('a call that no running holder took gets 503, and nothing was done: its retry with the same id is carried out once', async () => {
    const { sessionId } = await startRawSession(holder.baseURL);
    const title = `Relayed to a frozen holder ${randomUUID()}`;
    // A stopped process keeps its database connections: to the relay it still runs, only it takes nothing.
    process.kill(holder.pid, 'SIGSTOP');
    let refused: Response;
    try {
      refused = await createOverRelay(sessionId!, 1, title);
    } finally {
      process.kill(holder.pid, 'SIGCONT');
    }
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    await refused.text();
    expect((await fetch(`${holder.baseURL}/livez`)).status).toBe(200); // it runs again, and has read what it was sent meanwhile
    const retried = await createOverRelay(sessionId!, 1, title);
    expect(retried.status).toBe(200);
    expect((await resultOf(retried, 1))?.isError ?? false).toBe(false);
    expect(await tasksTitled(title)).toBe(1);
  });

  test('a holder that stops while working on a call: 502 saying it may have been carried out (no 503); the session is gone', async () => {
    const { sessionId } = await startRawSession(holder.baseURL);
    const events = await lockEvents();
    try {
      let settled = false;
      const answered = createOverRelay(sessionId!, 1, `Relayed to a holder that dies ${randomUUID()}`).finally(() => (settled = true));
      // Twice the timeout: the holder took it (else the answer would be a 503 by now) and is still working on it.
      await new Promise((resolve) => setTimeout(resolve, 2 * ACK_TIMEOUT_MS));
      expect(settled).toBe(false);
      process.kill(holder.pid, 'SIGKILL');
      await holder.exited;
      // The lock would hold up the relaying instance's pruning of the stopped holder's session events too.
      await events.release();
      const response = await answered;
      expect(response.status).toBe(502);
      expect((await response.json()).error.message).toMatch(/may have been carried out/);
    } finally {
      await events.release();
    }
    expect(await statusOn(relaying.baseURL, sessionId!, listTools(2))).toBe(404);
  });
});
