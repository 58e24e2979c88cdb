// Graceful shutdown: on SIGTERM/SIGINT requests in flight finish, new ones get 503, streams say "reconnect", every
// connection is answered and closed, then exit 0.
import 'server-only';
import type http from 'node:http';
import type { Socket } from 'node:net';
import { config } from './config.js';
import { database } from './db/database.js';

/** The shutdown state, one per process: the instrumentation bundle and every route bundle have their own copy of this module. */
interface Lifecycle {
  shuttingDown: boolean;
  /** Whether the graceful shutdown took over the signals (it is installed once per process). */
  installed?: boolean;
  /** Called once when shutdown begins (streams end with a last line telling the client to reconnect). */
  listeners: Set<ShutdownListener>;
}

const lifecycleKey = Symbol.for('vovk-gateway.lifecycle');
type GlobalWithLifecycle = typeof globalThis & { [lifecycleKey]?: Lifecycle };

function lifecycle(): Lifecycle {
  const scope = globalThis as GlobalWithLifecycle;
  scope[lifecycleKey] ??= { shuttingDown: false, listeners: new Set() };
  return scope[lifecycleKey];
}

/** True once the process was told to stop: new requests are refused, open streams end, `/readyz` answers 503. */
export function isShuttingDown(): boolean {
  return lifecycle().shuttingDown;
}

/** Runs when shutdown begins; the work it returns (closing MCP sessions) is awaited, within the grace, before the store closes. */
type ShutdownListener = () => void | Promise<void>;

/** Calls `listener` once when shutdown begins (at once when it has begun); returns a function that cancels it. */
export function onShutdown(listener: ShutdownListener): () => void {
  const state = lifecycle();
  if (state.shuttingDown) {
    void listener();
    return () => {};
  }
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

/** The MCP door's paths (Streamable HTTP, and HTTP+SSE's stream and messages): their refusals are JSON-RPC errors. */
const MCP_PATHS = /^\/api\/(mcp|sse|message)(\/|\?|$)/;

/** What a request that arrives during shutdown reads: the door's own error shape, 503, and a closed connection. */
const SHUTDOWN_MESSAGE = 'The server is shutting down: send the request again (it will reach a running instance)';

function refuse(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume(); // read and drop any body, so that closing the connection does not reset it under the client
  const body = MCP_PATHS.test(req.url ?? '')
    ? { jsonrpc: '2.0', error: { code: -32000, message: SHUTDOWN_MESSAGE }, id: null }
    : { statusCode: 503, message: SHUTDOWN_MESSAGE, isError: true };
  res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' });
  res.end(JSON.stringify(body));
}

/** Where the gateway's server entry (`server/gateway.mjs` of the package) puts the HTTP server it created, before Next.js loads the app. */
const httpServerKey = Symbol.for('vovk-gateway.http-server');
type GlobalWithServer = typeof globalThis & { [httpServerKey]?: http.Server };

/** The HTTP server this process serves with, as the gateway's entry handed it over; undefined under `next start`/`next dev`. */
function handedOverServer(): http.Server | undefined {
  return (globalThis as GlobalWithServer)[httpServerKey];
}

/**
 * The entry's own answer to a signal that comes before the graceful shutdown is installed (an app without an
 * instrumentation hook installs it when its first gateway route loads): replaced by it.
 */
const entrySignalKey = Symbol.for('vovk-gateway.entry-signal-handler');
type GlobalWithEntrySignal = typeof globalThis & { [entrySignalKey]?: (signal: NodeJS.Signals) => void };

/** Paths answered during a drain too: the probes must tell "alive" and "draining" (`/readyz` answers 503 itself). */
const PROBE_PATHS = new Set(['/livez', '/readyz']);

/**
 * How long the listening socket stays open after the last new connection: a connection the kernel completed but Node
 * had not accepted yet would be reset by closing it, so the drain keeps accepting (and answering 503) until none has
 * arrived for this long.
 */
const ACCEPT_QUIET_MS = 500;

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** The connections of a server and the requests on them, tracked from its start so that a drain knows when all are done. */
class ConnectionTracker {
  readonly connections = new Set<Socket>();
  readonly inFlight = new Set<http.ServerResponse>();
  lastConnectionAt = performance.now();
  private changed = () => {};

  constructor(server: http.Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.add(socket);
      this.lastConnectionAt = performance.now();
      socket.once('close', () => {
        this.connections.delete(socket);
        this.changed();
      });
    });
  }

  track(res: http.ServerResponse): void {
    this.inFlight.add(res);
    res.once('close', () => {
      this.inFlight.delete(res);
      this.changed();
    });
  }

  /** Resolves when `done()` holds, checked after every change and every `pollMs`, or with false after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number, pollMs = 50): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.changed = () => {};
        resolve(result);
      };
      const check = () => done() && finish(true);
      const timer = setTimeout(() => finish(false), Math.max(0, timeoutMs));
      const poll = setInterval(check, pollMs);
      this.changed = check;
      check();
    });
  }
}

interface GracefulShutdownOptions {
  /** How long requests in flight may take to finish; after that the process exits anyway. */
  graceMs: number;
  /** Runs once every connection is closed (or the grace is over), before the exit: closes the store. */
  close: () => Promise<void>;
}

/**
 * Installs the graceful shutdown (below) when this process was started by the gateway's server entry, with the
 * settings' grace, closing the gateway's database at the end: what `createMcpGateway` and `guardedSegment` do when
 * their route loads, for an app that has no instrumentation hook doing it at start. Nothing under `next start`,
 * `next dev` or `next build`.
 */
export function drainWhenServedByEntry(): void {
  if (handedOverServer()) installGracefulShutdown({ graceMs: config().shutdownGraceMs, close: () => database().close() });
}

/**
 * Takes over SIGTERM and SIGINT for the HTTP server the gateway's server entry handed over (the package's `server/gateway.mjs`, which
 * `npm start` runs). From the signal on, within `graceMs`:
 * - every new request gets 503 with `Connection: close` and `Retry-After`, before any work (`/livez` and `/readyz`
 *   excepted: they answer "alive" and "draining");
 * - the requests in flight run to their end, answering with `Connection: close`; the `onShutdown` listeners run
 *   (streams end with "reconnect", sessions close, running jobs fail);
 * - idle keep-alive connections are not cut: the next request on one is answered 503 and closes it, and an unused one
 *   ends with its keep-alive timeout (Node's 5 s, a client's own sooner) — closing it ourselves could cut a request the
 *   client is sending at that very moment;
 * - the listening socket stays open, answering 503, until every connection is closed and none has arrived for
 *   `ACCEPT_QUIET_MS`: closing it resets the connections still waiting in the listen backlog.
 * Then the server closes, `close` runs, exit 0. At the end of the grace whatever is left is cut off.
 */
export function installGracefulShutdown({ graceMs, close }: GracefulShutdownOptions): void {
  const state = lifecycle();
  if (state.installed) return;
  const entryHandler = (globalThis as GlobalWithEntrySignal)[entrySignalKey];
  if (entryHandler) for (const signal of ['SIGTERM', 'SIGINT'] as const) process.off(signal, entryHandler);
  if (process.listenerCount('SIGTERM') > 0) {
    console.warn('[gateway] SIGTERM is handled by Next.js itself: no graceful shutdown (start the app with `npx vovk-mcp-gateway start`)');
    return;
  }
  const server = handedOverServer();
  if (!server) {
    console.warn('[gateway] No HTTP server handed over (not started by `npx vovk-mcp-gateway start`): no graceful shutdown');
    return;
  }
  state.installed = true;
  const tracker = new ConnectionTracker(server);
  const nextListeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (isShuttingDown() && !PROBE_PATHS.has(req.url?.split('?')[0] ?? '')) return refuse(req, res);
    if (isShuttingDown()) res.setHeader('connection', 'close');
    tracker.track(res);
    for (const listener of nextListeners) listener.call(server, req, res);
  });

  const shutDown = async (signal: NodeJS.Signals) => {
    const state = lifecycle();
    if (state.shuttingDown) return;
    state.shuttingDown = true;
    const started = performance.now();
    const remainingMs = () => graceMs - (performance.now() - started);
    console.log(
      `[gateway] ${signal}: shutting down; ${tracker.inFlight.size} request(s) in flight on ${tracker.connections.size} connection(s), ${graceMs} ms to finish`,
    );
    for (const res of tracker.inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
    const listenersDone: Array<Promise<void>> = [];
    for (const listener of state.listeners) {
      try {
        const done = listener();
        if (done) listenersDone.push(done.catch((error: unknown) => console.error('[gateway] A shutdown listener failed:', error)));
      } catch (error) {
        console.error('[gateway] A shutdown listener failed:', error);
      }
    }
    state.listeners.clear();
    let listenersSettled = listenersDone.length === 0;
    void Promise.all(listenersDone).then(() => (listenersSettled = true));

    const answered = await tracker.until(() => tracker.inFlight.size === 0, remainingMs());
    if (!answered) console.warn(`[gateway] ${tracker.inFlight.size} request(s) still running after ${graceMs} ms: cut off`);
    const drained = await tracker.until(
      () => listenersSettled && tracker.connections.size === 0 && performance.now() - tracker.lastConnectionAt >= ACCEPT_QUIET_MS,
      remainingMs(),
    );
    if (!listenersSettled) console.warn('[gateway] The shutdown work (closing MCP sessions) did not finish within the grace: cut off');
    if (!drained && tracker.connections.size > 0) console.warn(`[gateway] ${tracker.connections.size} connection(s) still open after ${graceMs} ms: cut off`);
    server.close();
    server.closeAllConnections();
    await close().catch((error: unknown) => console.error('[gateway] Closing the store failed:', error));
    console.log(`[gateway] Stopped in ${Math.round(performance.now() - started)} ms`);
    process.exit(0);
  };
  process.on('SIGTERM', shutDown);
  process.on('SIGINT', shutDown);
}
