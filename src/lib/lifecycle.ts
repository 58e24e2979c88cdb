// Graceful shutdown: on SIGTERM/SIGINT requests in flight finish, new ones get 503, streams say "reconnect", then exit 0.
import 'server-only';
import http from 'node:http';

/** The shutdown state, one per process: the instrumentation bundle and every route bundle have their own copy of this module. */
interface Lifecycle {
  shuttingDown: boolean;
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

/** True once the process was told to stop: new requests are refused and open streams end. */
function isShuttingDown(): boolean {
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

/** What a request that arrives during shutdown reads: the door's own error shape, 503, and a closed connection. */
const SHUTDOWN_MESSAGE = 'The server is shutting down: send the request again (it will reach a running instance)';

function refuse(req: http.IncomingMessage, res: http.ServerResponse): void {
  req.resume(); // read and drop any body, so that closing the connection does not reset it under the client
  const body = req.url?.startsWith('/api/mcp')
    ? { jsonrpc: '2.0', error: { code: -32000, message: SHUTDOWN_MESSAGE }, id: null }
    : { statusCode: 503, message: SHUTDOWN_MESSAGE, isError: true };
  res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '1' });
  res.end(JSON.stringify(body));
}

/**
 * The HTTP server `next start` listens with. Next.js hands no reference to it to the app, so it is found among the
 * process's active handles (Node's `process._getActiveHandles()`, the handles that keep the process alive).
 */
function listeningServer(): http.Server | undefined {
  const { _getActiveHandles } = process as unknown as { _getActiveHandles?: () => unknown[] };
  return _getActiveHandles?.().find((handle): handle is http.Server => handle instanceof http.Server && handle.listening);
}

type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface GracefulShutdownOptions {
  /** How long requests in flight may take to finish; after that the process exits anyway. */
  graceMs: number;
  /** Runs once no request is left (or the grace is over), before the exit: closes the store. */
  close: () => Promise<void>;
}

/**
 * Takes over SIGTERM and SIGINT for the server of this process (Next.js must not handle them itself:
 * `NEXT_MANUAL_SIG_HANDLE=true`, which `npm start` sets). From the signal on: every new request gets 503 with
 * `Connection: close` and `Retry-After`; the requests in flight run to their end (up to `graceMs`), answering with
 * `Connection: close`; the `onShutdown` listeners run (streams end); then the server closes, `close` runs, exit 0.
 * The listening socket stays open until then, so that no connection already made is reset.
 */
export function installGracefulShutdown({ graceMs, close }: GracefulShutdownOptions): void {
  if (process.listenerCount('SIGTERM') > 0) {
    console.warn('[gateway] SIGTERM is handled by Next.js itself (NEXT_MANUAL_SIG_HANDLE is not set): no graceful shutdown');
    return;
  }
  const server = listeningServer();
  if (!server) {
    console.warn('[gateway] No listening HTTP server found: no graceful shutdown');
    return;
  }
  const inFlight = new Set<http.ServerResponse>();
  let lastFinished = () => {};
  const nextListeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (isShuttingDown()) return refuse(req, res);
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (inFlight.size === 0) lastFinished();
    });
    for (const listener of nextListeners) listener.call(server, req, res);
  });

  const shutDown = async (signal: NodeJS.Signals) => {
    const state = lifecycle();
    if (state.shuttingDown) return;
    state.shuttingDown = true;
    const started = performance.now();
    console.log(`[gateway] ${signal}: shutting down; ${inFlight.size} request(s) in flight, ${graceMs} ms to finish`);
    for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
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
    const finished = await new Promise<boolean>((resolve) => {
      if (inFlight.size === 0) return resolve(true);
      const timer = setTimeout(() => resolve(false), graceMs);
      lastFinished = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    if (!finished) console.warn(`[gateway] ${inFlight.size} request(s) still running after ${graceMs} ms: cut off`);
    const remainingMs = Math.max(0, graceMs - (performance.now() - started));
    const settled = await Promise.race([
      Promise.all(listenersDone).then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), remainingMs).unref()),
    ]);
    if (!settled) console.warn('[gateway] The shutdown work (closing MCP sessions) did not finish within the grace: cut off');
    server.close();
    server.closeAllConnections();
    await close().catch((error: unknown) => console.error('[gateway] Closing the store failed:', error));
    console.log(`[gateway] Stopped in ${Math.round(performance.now() - started)} ms`);
    process.exit(0);
  };
  process.on('SIGTERM', shutDown);
  process.on('SIGINT', shutDown);
}
