// A rolling restart under load through nginx (deploy/nginx.conf): three instances on one PostgreSQL, each in turn
// SIGTERMed and started again while REST reads and writes, MCP 2026-07-28 calls, confirmations, 2025-era sessions with
// an elicitation, board streams and long tasks run. No reset, no 502/504, every 503 refused before any work and
// carrying Retry-After, every request served after at most one retry, every acknowledged write in the database once.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, test } from '@playwright/test';
import { createTestDatabase, type TestDatabase } from '../test/support/databases';
import { mcpHeaders, modernEnvelope, modernHeaders, modernToolCall, rawRequest } from './support/json-rpc';
import { type AccessLogEntry, type RunningNginx, startNginx } from './support/nginx';
import { writeFigures } from './support/reliability';
import { e2ePort, type RunningServer, startServer } from './support/server';

const INSTANCE_PORTS = [e2ePort + 110, e2ePort + 111, e2ePort + 112];
const NGINX_PORT = e2ePort + 113;
const SHARED_SECRET = 'rolling-restart-shared-state-secret-32-bytes';
/** Load before the first restart, and after the last instance is back. */
const WARM_MS = 5000;
const SETTLE_MS = 4000;
/** After an instance is back: long enough for nginx to take it into rotation again (fail_timeout=2s) before the next one drains. */
const BETWEEN_RESTARTS_MS = 4000;
/** The whole run must last at least this long. */
const MIN_RUN_MS = 30_000;
const ELICITATION = { elicitation: { form: {} } };
const TASKS_EXTENSION = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const COUNT = 'FixtureController_countSlowly';
const DELETE_TASK = 'TaskController_deleteTask';
const CREATE_TASK = 'TaskController_createTask';
const SHUTDOWN_MESSAGE = /shutting down/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One HTTP exchange a client had with nginx: its status, or the connection error; 503s with what they said. */
interface Exchange {
  door: string;
  status?: number;
  error?: string;
  retryAfter?: string;
  refusedBeforeWork?: boolean;
}

/** One request as its client sees it: answered (after at most one retry of a 503), how long it took in all. */
interface Outcome {
  door: string;
  method?: string;
  status: number;
  retried: boolean;
  ms: number;
}

/** Everything every client saw, for the checks and the figures. */
class Ledger {
  readonly exchanges: Exchange[] = [];
  readonly outcomes: Outcome[] = [];
  readonly failures: string[] = [];
  /** Requests the client itself aborted (the SDK closing its GET stream, a closed session): no answer was owed. */
  abortedByClient = 0;

  note(door: string, status: number, headers: Headers | Record<string, unknown>, text: string): void {
    const header = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]) as string | undefined;
    this.exchanges.push({
      door,
      status,
      ...(status === 503 && { retryAfter: header('retry-after') ?? undefined, refusedBeforeWork: SHUTDOWN_MESSAGE.test(text) }),
    });
  }

  noteError(door: string, error: unknown): void {
    if ((error as Error).name === 'AbortError') {
      this.abortedByClient++;
      return;
    }
    const cause = (error as { cause?: { code?: string } }).cause;
    this.exchanges.push({ door, error: cause?.code ?? (error as NodeJS.ErrnoException).code ?? String(error) });
  }
}

/** The wait a 503 asks for (Retry-After, seconds). */
const retryAfterMs = (value: string | null | undefined) => Number(value ?? 1) * 1000;

/**
 * A raw request through nginx (node:http keeps the error codes), sent once more after a 503 (after its Retry-After);
 * the answer is the client's outcome.
 */
async function send(
  ledger: Ledger,
  door: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    let answer: Awaited<ReturnType<typeof rawRequest>>;
    try {
      answer = await rawRequest(url, options);
    } catch (error) {
      ledger.noteError(door, error);
      throw error;
    }
    ledger.note(door, answer.status, answer.headers, answer.text);
    if (answer.status !== 503 || attempt === 1) {
      ledger.outcomes.push({ door, status: answer.status, retried: attempt === 1, ms: performance.now() - started });
      return answer;
    }
    await sleep(retryAfterMs(answer.headers['retry-after'] as string | undefined));
  }
}

/** A fetch for the official clients that records each exchange and sends a request once more after a 503; `onAnswer` sees each status. */
function retryingFetch(ledger: Ledger, door: string, onAnswer: (status: number) => void = () => {}): typeof fetch {
  return async (input, init) => {
    const started = performance.now();
    const method = init?.method ?? 'GET';
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(input, init);
      } catch (error) {
        ledger.noteError(door, error);
        throw error;
      }
      onAnswer(response.status);
      if (response.status !== 503 || attempt === 1) {
        ledger.note(door, response.status, response.headers, '');
        ledger.outcomes.push({ door, method, status: response.status, retried: attempt === 1, ms: performance.now() - started });
        return response;
      }
      ledger.note(door, 503, response.headers, await response.text());
      await sleep(retryAfterMs(response.headers.get('retry-after')));
    }
  };
}

const json = { 'content-type': 'application/json' };
/** The final JSON-RPC message of an MCP reply (plain JSON, or the last `data:` line of an SSE-framed one). */
function rpcResult(text: string): { result?: Record<string, unknown>; error?: { message: string } } {
  const data = [...text.matchAll(/^data: (.+)$/gm)].map((match) => match[1]);
  return JSON.parse(data.at(-1) ?? text);
}

type BoardEvent = { type: string; board?: { columns: Array<{ tasks: Array<{ id: number }> }> } };

/** The first line of a board stream opened now (what a client that reconnects sees first). */
async function firstBoardEvent(base: string): Promise<BoardEvent> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/board/stream`, { headers: { accept: 'application/jsonl' }, signal: controller.signal });
  let buffered = '';
  try {
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      if (buffered.includes('\n')) break;
    }
  } finally {
    controller.abort();
  }
  return JSON.parse(buffered.split('\n')[0]);
}

test('rolling restart behind nginx under mixed load: nothing reset or lost, every 503 refused before work and served on one retry', async () => {
  test.setTimeout(120_000);
  let database: TestDatabase | undefined;
  const servers: RunningServer[] = [];
  let nginx: RunningNginx | undefined;
  const stopLoad: Array<() => Promise<void>> = [];
  try {
    database = await createTestDatabase('postgres');
    const env = { ...database.env, GATEWAY_STATE_SECRET: SHARED_SECRET, SHUTDOWN_GRACE_MS: '10000', GATEWAY_TRUST_PROXY: '1' };
    const start = (index: number, round: number) =>
      startServer(INSTANCE_PORTS[index], env, `test-results/rolling-restart-${index + 1}-${round}.log`);
    servers.push(...(await Promise.all(INSTANCE_PORTS.map((_, index) => start(index, 0)))));
    nginx = await startNginx(NGINX_PORT, INSTANCE_PORTS);
    const base = nginx.baseURL;
    const ledger = new Ledger();
    let running = true;
    const loops: Array<Promise<void>> = [];
    /** The loops still in a step, by name: what to name when the load does not stop. */
    const busy = new Set<string>();
    /** Runs `step` again and again until the load stops; a step that throws is a failure of the run. */
    const loop = (name: string, step: (n: number) => Promise<void>, pauseMs = 20) => {
      const id = `${name} #${loops.length}`;
      loops.push(
        (async () => {
          busy.add(id);
          for (let n = 0; running; n++) {
            try {
              await step(n);
            } catch (error) {
              ledger.failures.push(`${name}: ${String(error)}`);
            }
            await sleep(pauseMs);
          }
          busy.delete(id);
        })(),
      );
    };

    // REST reads.
    const reads = ['/api/tasks', '/api/board', '/api/users/1', '/api/users'];
    for (const offset of [0, 2]) {
      loop('rest read', async (n) => {
        const { status } = await send(ledger, 'rest read', `${base}${reads[(n + offset) % reads.length]}`);
        expect(status).toBe(200);
      });
    }
    // REST writes: each acknowledged create is recorded, and moved once (an idempotent PUT).
    const acknowledged: Array<{ id: number; title: string }> = [];
    loop('rest write', async (n) => {
      const title = `rolling rest ${n}`;
      const created = await send(ledger, 'rest write', `${base}/api/tasks`, { method: 'POST', headers: json, body: JSON.stringify({ title }) });
      expect(created.status, created.text).toBe(200);
      const { id } = JSON.parse(created.text);
      acknowledged.push({ id, title });
      const moved = await send(ledger, 'rest write', `${base}/api/tasks/${id}/move`, { method: 'PUT', headers: json, body: '{"status":"done"}' });
      expect(moved.status, moved.text).toBe(200);
    });
    // MCP 2026-07-28 tool calls (raw): writes acknowledged by their structuredContent, and reads.
    loop('mcp 2026', async (n) => {
      const title = `rolling mcp ${n}`;
      const call = modernToolCall(n, CREATE_TASK, { body: { title } });
      const answer = await send(ledger, 'mcp 2026', `${base}/api/mcp`, { method: 'POST', headers: modernHeaders('tools/call', CREATE_TASK), body: JSON.stringify(call) });
      expect(answer.status, answer.text).toBe(200);
      const { result } = rpcResult(answer.text);
      expect(result?.isError ?? false, answer.text).toBe(false);
      acknowledged.push({ id: (result?.structuredContent as { id: number }).id, title });
      const list = await send(ledger, 'mcp 2026', `${base}/api/mcp`, {
        method: 'POST',
        headers: modernHeaders('tools/call', 'TaskController_listTasks'),
        body: JSON.stringify(modernToolCall(n, 'TaskController_listTasks', {})),
      });
      expect(list.status).toBe(200);
    });
    // Confirmations: deleteTask answers input_required, its retry (another request, tagged to find it in nginx's log)
    // carries the answer and the signed requestState, wherever it lands.
    const confirmed: Array<{ id: number; legs: [string, string] }> = [];
    loop('confirmation', async (n) => {
      const made = await send(ledger, 'rest write', `${base}/api/tasks`, { method: 'POST', headers: json, body: JSON.stringify({ title: `rolling confirm ${n}` }) });
      const { id } = JSON.parse(made.text);
      const legs: [string, string] = [`confirm-${n}-ask`, `confirm-${n}-answer`];
      const headers = (leg: string) => ({ ...modernHeaders('tools/call', DELETE_TASK), 'x-request-id': leg });
      const asked = await send(ledger, 'confirmation', `${base}/api/mcp`, {
        method: 'POST',
        headers: headers(legs[0]),
        body: JSON.stringify(modernToolCall(1, DELETE_TASK, { params: { id } }, { capabilities: ELICITATION })),
      });
      const question = rpcResult(asked.text).result;
      expect(question?.resultType, asked.text).toBe('input_required');
      const answered = await send(ledger, 'confirmation', `${base}/api/mcp`, {
        method: 'POST',
        headers: headers(legs[1]),
        body: JSON.stringify(
          modernToolCall(2, DELETE_TASK, { params: { id } }, {
            capabilities: ELICITATION,
            inputResponses: { confirmation: { action: 'accept', content: { confirm: true } } },
            requestState: question?.requestState as string,
          }),
        ),
      });
      expect(rpcResult(answered.text).result?.isError ?? false, answered.text).toBe(false);
      confirmed.push({ id, legs });
    }, 100);
    // Long tasks (the Tasks extension): counting for ~1.5 s, polled until they end: completed, or failed because
    // their instance shut down (as a task does whose instance stops).
    const taskEnds: Record<string, number> = {};
    loop('long task', async (n) => {
      const request = (method: string, params: Record<string, unknown>, id: number) =>
        send(ledger, 'long task', `${base}/api/mcp`, {
          method: 'POST',
          headers: modernHeaders(method, (params.name ?? params.taskId) as string),
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: modernEnvelope(TASKS_EXTENSION) } }),
        });
      const started = rpcResult((await request('tools/call', { name: COUNT, arguments: { body: { to: 15, stepMs: 100, label: `rolling-${n}` } } }, 1)).text);
      const taskId = (started.result as { taskId?: string } | undefined)?.taskId;
      expect(taskId, JSON.stringify(started)).toBeTruthy();
      for (let poll = 2; ; poll++) {
        await sleep(250);
        const { result } = rpcResult((await request('tasks/get', { taskId }, poll)).text);
        const status = result?.status as string;
        if (status === 'working') continue;
        const ending = status === 'failed' && /shut down/.test(String(result?.statusMessage)) ? 'failed: instance shut down' : status;
        expect(['completed', 'failed: instance shut down'], JSON.stringify(result)).toContain(ending);
        taskEnds[ending] = (taskEnds[ending] ?? 0) + 1;
        return;
      }
    }, 100);
    // 2025-era sessions (SDK v1 client), deleting with a confirmation over the session, kept across calls; when the
    // session's instance restarts, the session ends as the spec says (404) and the client starts a new one.
    const sessions = { started: 0, endedWith404: 0, closedUnderACall: 0, confirmedDeletes: 0 };
    let session: { client: ClientV1; answered404: boolean } | undefined;
    const openSession = async () => {
      const client = new ClientV1({ name: 'rolling-v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
      const opened = { client, answered404: false };
      const fetchNoting404 = retryingFetch(ledger, 'session', (status) => (opened.answered404 ||= status === 404));
      await client.connect(new TransportV1(new URL(`${base}/api/mcp`), { fetch: fetchNoting404 })).catch(async (error: unknown) => {
        await client.close().catch(() => undefined);
        throw error;
      });
      sessions.started++;
      return opened;
    };
    loop('session', async (n) => {
      try {
        session ??= await openSession();
      } catch (error) {
        // The same end before the session was in use: its holder went down between `initialize` and `initialized`
        // (relayed to it by another instance), so that notification got 404. The client starts another one.
        if (!/\b404\b|Session not found/i.test(String(error))) throw error;
        sessions.endedWith404++;
        return;
      }
      const made = await send(ledger, 'rest write', `${base}/api/tasks`, { method: 'POST', headers: json, body: JSON.stringify({ title: `rolling session ${n}` }) });
      const { id } = JSON.parse(made.text);
      try {
        const result = await session.client.callTool({ name: DELETE_TASK, arguments: { params: { id } } }, undefined, { timeout: 15_000 });
        expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
        sessions.confirmedDeletes++;
      } catch (error) {
        // The spec's end of a session whose instance is gone: 404 to a request naming it (the call's own, or the
        // client's GET stream's, after which the client closes its transport: "Not connected").
        // A call in flight when the holder shuts down ends with the session, which the instance closes ("Connection closed");
        // so does one sent after the client gave up its GET stream to the draining holder (its transport closed: "Not
        // connected") before any request of it was answered 404.
        const closedUnderTheCall = /Connection closed|Not connected/.test(String(error));
        if (!closedUnderTheCall && !session.answered404 && !/\b404\b|Session not found/i.test(String(error))) throw error;
        if (closedUnderTheCall) sessions.closedUnderACall++;
        else sessions.endedWith404++;
        await session.client.close().catch(() => undefined);
        session = undefined;
        // The task of the interrupted call is deleted (the call ran) or still there: delete it over REST either way.
        const left = await send(ledger, 'session cleanup', `${base}/api/tasks/${id}`, { method: 'DELETE' });
        expect([200, 404]).toContain(left.status);
      }
    }, 150);
    stopLoad.push(async () => session?.client.close().catch(() => undefined));
    // Board streams through nginx, reopened whenever they end, as the board page does.
    const streams = [0, 1].map(() => ({ opened: 0, reconnectLines: 0, last: undefined as BoardEvent | undefined }));
    streams.forEach((stream, index) => {
      loops.push(
        (async () => {
          const controller = new AbortController();
          stopLoad.push(async () => controller.abort());
          while (running) {
            try {
              const response = await retryingFetch(ledger, 'board stream')(`${base}/api/board/stream`, { headers: { accept: 'application/jsonl' }, signal: controller.signal });
              expect(response.status).toBe(200);
              stream.opened++;
              let buffered = '';
              for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
                buffered += chunk;
                const lines = buffered.split('\n');
                buffered = lines.pop()!;
                for (const line of lines.filter(Boolean)) {
                  const event = JSON.parse(line) as BoardEvent;
                  if (event.type === 'reconnect') stream.reconnectLines++;
                  if (event.type === 'board') stream.last = event;
                }
              }
            } catch (error) {
              if (running) ledger.failures.push(`board stream ${index}: ${String(error)}`);
            }
          }
        })(),
      );
    });

    // The rolling restart: each instance in turn gets SIGTERM, exits, and starts again.
    const runStarted = performance.now();
    await sleep(WARM_MS);
    const restarts: Array<{ instance: number; drainMs: number; startMs: number }> = [];
    for (const [index] of INSTANCE_PORTS.entries()) {
      const signalled = performance.now();
      await servers[index].stop();
      const exitedAt = performance.now();
      servers[index] = await start(index, 1);
      restarts.push({ instance: index + 1, drainMs: Math.round(exitedAt - signalled), startMs: Math.round(performance.now() - exitedAt) });
      await sleep(BETWEEN_RESTARTS_MS);
    }
    await sleep(Math.max(SETTLE_MS, MIN_RUN_MS - (performance.now() - runStarted)));
    running = false;
    await Promise.all(stopLoad.map((stop) => stop()));
    const stopped = await Promise.race([Promise.all(loops).then(() => true), sleep(20_000).then(() => false)]);
    expect(stopped, `loops still busy 20 s after the load stopped: ${[...busy].join(', ')}`).toBe(true);
    const runMs = Math.round(performance.now() - runStarted);

    // The final state: one more write, seen by both streams (reopened once more to read it), equal to the board.
    const finalTitle = `rolling final ${Date.now()}`;
    const final = await send(ledger, 'rest write', `${base}/api/tasks`, { method: 'POST', headers: json, body: JSON.stringify({ title: finalTitle }) });
    expect(final.status, `${final.text}\n${nginx.errorLog()}`).toBe(200);
    const finalId = JSON.parse(final.text).id as number;
    const board = JSON.parse((await send(ledger, 'rest read', `${base}/api/board`)).text) as { columns: Array<{ tasks: Array<{ id: number }> }> };
    const ids = (b: { columns: Array<{ tasks: Array<{ id: number }> }> }) => b.columns.flatMap((column) => column.tasks.map((task) => task.id)).sort((x, y) => x - y);
    for (const stream of streams) {
      const first = await firstBoardEvent(base);
      expect(stream.last, 'the last board a stream of the load saw').toBeDefined();
      expect(ids(first.board!)).toContain(finalId);
      expect(ids(first.board!)).toEqual(ids(board));
    }

    // Nothing failed, nothing was reset, nginx never answered 502/504 nor ran out of instances.
    expect(ledger.failures, 'failed steps').toEqual([]);
    const errors = ledger.exchanges.filter((exchange) => exchange.error);
    expect(errors.map((exchange) => `${exchange.door} ${exchange.error}`), 'connection errors (resets)').toEqual([]);
    const gatewayErrors = ledger.exchanges.filter((exchange) => exchange.status === 502 || exchange.status === 504);
    expect(gatewayErrors.length, '502/504 answers').toBe(0);
    expect(nginx.errorLog()).not.toMatch(/no live upstreams/);
    // Every 503 said when to retry and was a refusal before any work.
    const refusals = ledger.exchanges.filter((exchange) => exchange.status === 503);
    expect(refusals.filter((refusal) => !refusal.retryAfter || !refusal.refusedBeforeWork), '503s without Retry-After or after work').toEqual([]);
    // After one retry of a 503 every request was served. Expected refusals: 404 to a request naming a session that
    // ended (the spec's end of one, counted below), 409 to the v1 client's GET stream reopened while the session's
    // holder still has one, 404 to deleting the task of an interrupted call that had deleted it.
    const expectedRefusal = ({ door, method, status }: Outcome) =>
      (door === 'session' && (status === 404 || (method === 'GET' && status === 409))) || (door === 'session cleanup' && status === 404);
    const unserved = ledger.outcomes.filter((outcome) => outcome.status >= 400 && !expectedRefusal(outcome));
    expect(unserved.map((outcome) => `${outcome.door} ${outcome.status}`), 'requests not served after one retry').toEqual([]);

    // Every acknowledged write is in the database exactly once.
    const tasks = JSON.parse((await send(ledger, 'rest read', `${base}/api/tasks`)).text) as Array<{ id: number; title: string; status: string }>;
    const byTitle = new Map<string, number>();
    for (const task of tasks) byTitle.set(task.title, (byTitle.get(task.title) ?? 0) + 1);
    expect(acknowledged.filter((write) => byTitle.get(write.title) !== 1).map((write) => write.title), 'acknowledged writes not present exactly once').toEqual([]);
    expect(tasks.filter((task) => /^rolling (rest|mcp) /.test(task.title)).length).toBe(acknowledged.length);
    const present = new Set(tasks.map((task) => task.id));
    expect(confirmed.filter((confirmation) => present.has(confirmation.id)), 'confirmed deletes still present').toEqual([]);

    // Confirmations whose two legs reached different instances; sessions that ended with 404 and were started again.
    const upstreamOf = new Map(nginx.accessLog().map((entry: AccessLogEntry) => [entry.requestId, entry.upstreams.at(-1)]));
    const crossed = confirmed.filter(({ legs }) => upstreamOf.get(legs[0]) && upstreamOf.get(legs[0]) !== upstreamOf.get(legs[1]));
    expect(crossed.length, 'confirmations whose legs reached different instances').toBeGreaterThan(0);
    expect(sessions.endedWith404, 'sessions that ended with 404 after their instance restarted').toBeGreaterThan(0);
    expect(sessions.started).toBeGreaterThan(sessions.endedWith404);
    expect(sessions.confirmedDeletes).toBeGreaterThan(sessions.endedWith404);
    for (const stream of streams) expect(stream.opened, 'board stream openings').toBeGreaterThan(1);
    expect(taskEnds.completed ?? 0).toBeGreaterThan(0);

    const retried = ledger.outcomes.filter((outcome) => outcome.retried).length;
    const access = nginx.accessLog();
    // What nginx handled by itself: requests it sent to another instance (after a refused connection or a 503 to a GET).
    const sentElsewhereByNginx = access.filter((entry) => entry.upstreams.length > 1).length;
    const refusalsAbsorbedByNginx = access.filter((entry) => entry.upstreamStatuses.includes('503') && entry.status !== 503).length;
    const longestPauseMs = Math.round(Math.max(...ledger.outcomes.map((outcome) => outcome.ms)));
    const figures = {
      runMs,
      restarts,
      requests: ledger.outcomes.length,
      httpExchanges: ledger.exchanges.length,
      refused503: refusals.length,
      retried,
      sentElsewhereByNginx,
      refusalsAbsorbedByNginx,
      resets: errors.length,
      abortedByClient: ledger.abortedByClient,
      badGateway: gatewayErrors.length,
      longestPauseMs,
      byDoor: Object.fromEntries([...new Set(ledger.outcomes.map((o) => o.door))].map((door) => [door, ledger.outcomes.filter((o) => o.door === door).length])),
      acknowledgedWrites: acknowledged.length,
      confirmations: confirmed.length,
      confirmationsAcrossInstances: crossed.length,
      sessions,
      boardStreams: streams.map(({ opened, reconnectLines }) => ({ opened, reconnectLines })),
      longTasks: taskEnds,
    };
    for (const [type, value] of Object.entries(figures)) test.info().annotations.push({ type, description: JSON.stringify(value) });
    writeFigures('rolling-restart', figures);
  } finally {
    await Promise.all(stopLoad.map((stop) => stop().catch(() => undefined)));
    await nginx?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  }
});
