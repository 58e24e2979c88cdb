// Relays a request for a session another instance holds to that instance through PostgreSQL (NOTIFY; a table for
// messages too large for NOTIFY) and streams its answer back the same way: no sticky load balancer needed. The holder
// acknowledges a request and starts it only when told to, so that a 503 of the relay always means "nothing was done".
import 'server-only';
import { randomUUID } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import type { SqlDriver, SqlMessaging } from '../../db/driver.js';
import type { Caller } from '../../request-context.js';
import { ownerNotAnswering, relayedAnswerLost, sessionNotFound } from './session-answers.js';
import type { SessionDirectory } from './session-directory.js';

/** A request as it travels to the instance holding its session: no bearer token (the caller was verified already). */
export interface RelayedRequest {
  sessionId: string;
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: string;
  caller?: Caller;
  authInfo?: AuthInfo;
  /** The trace of the relaying instance's HTTP request (W3C trace context), so that the owner's spans join it. */
  trace?: Record<string, string>;
}

/**
 * The relay protocol an instance speaks, sent with each request (`open`). 2: the owner acknowledges the request (`ack`)
 * and starts it only at the relaying instance's `go` (never after a `cancel`). An `open` without it comes from an
 * older instance, which expects no `ack` and sends no `go`: the owner serves it at once, as before.
 */
const RELAY_VERSION = 2;

/**
 * The messages of one relay (`r`): the request to the owner, its acknowledgement, the go ahead, then the answer's head,
 * data and end back; or a cancel.
 */
type RelayMessage =
  | { k: 'open'; r: string; from: string; request: RelayedRequest; v?: number }
  | { k: 'ack'; r: string }
  | { k: 'go'; r: string }
  | { k: 'head'; r: string; status: number; headers: Array<[string, string]>; body: boolean }
  | { k: 'data'; r: string; d: string }
  | { k: 'end'; r: string }
  | { k: 'cancel'; r: string };

/** What NOTIFY carries: a message, or where a larger one waits in `gateway_mcp_relay_payloads`. */
type Notification = RelayMessage | { k: 'ref'; r: string; ref: string };

/** NOTIFY takes at most 8000 bytes; larger messages go through the table. */
const NOTIFY_MAX_BYTES = 7900;
/**
 * How long the owner may take to acknowledge a request (an older owner: to start answering it) before the relaying
 * instance gives up — 404 if the owner stopped, else 503 — and how long an owner that acknowledged waits for the go
 * before it answers 503 itself. After the go, the relaying instance waits as long as the owner runs, and asks whether
 * it still does this often.
 */
const ACK_TIMEOUT_MS = 5000;
/** Silence (ms) after which each side of a streamed answer checks that the other instance still runs. */
const SILENCE_CHECK_MS = 30_000;
/** Relayed payloads nobody picked up (its reader stopped) are removed after this long. */
export const PAYLOAD_RETENTION_MS = 10 * 60_000;
/** Headers that belong to one HTTP hop, or that the owner must not see (the token: the caller travels verified). */
const UNRELAYED_HEADERS = new Set(['authorization', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

const relayedHeaders = (headers: Headers): Array<[string, string]> =>
  [...headers].filter(([name]) => !UNRELAYED_HEADERS.has(name.toLowerCase()));

/** The name of the channel an instance listens on. */
const channelOf = (instance: string) => `mcp_relay_${instance}`;

const LATE = Symbol('late');
const ACKNOWLEDGED = Symbol('acknowledged');

/** `promise`'s value, or LATE once `ms` have passed without one. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** What a relayed request whose client left gets (nginx's "client closed request"): nobody reads it. */
const clientLeft = () => new Response(null, { status: 499 });

/** A relay this instance started: the answer being awaited, then streamed to its client. */
interface Forwarded {
  owner: string;
  /** The relayed request's method: a GET is a session's standalone stream, which never ends by itself. */
  method: string;
  head: { resolve: (response: Response) => void; reject: (error: Error) => void };
  /** The owner acknowledged the request (`ack`). */
  acknowledged: () => void;
  /** The owner was told to go ahead: from then on it may act on the request, and no answer may say it did nothing. */
  started: boolean;
  stream?: ReadableStreamDefaultController<Uint8Array>;
  lastHeard: number;
  watchdog?: NodeJS.Timeout;
}

/** A relay another instance started: this instance's answer being sent to it. */
interface Served {
  from: string;
  /** Acknowledged and waiting for the go (nothing done yet): the request, and the timer that stops waiting. */
  awaitingGo?: { request: RelayedRequest; timer: NodeJS.Timeout };
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  /** Nobody reads the answer any more (the client left, or the relaying instance stopped). */
  cancelled: boolean;
}

/** Serves a relayed request as the instance holding its session. */
export type ServeRelayed = (request: RelayedRequest, http: Request) => Promise<Response>;

export class SessionRelay {
  private readonly forwarded = new Map<string, Forwarded>();
  private readonly served = new Map<string, Served>();
  /** Per relay, the messages received so far are handled in order (a large one is read from the table first). */
  private readonly inbox = new Map<string, Promise<void>>();
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly driver: SqlDriver,
    private readonly messaging: SqlMessaging,
    private readonly directory: SessionDirectory,
    private readonly serveRelayed: ServeRelayed,
    /** How long the owner may take to acknowledge a request (MCP_RELAY_ACK_TIMEOUT_MS; see ACK_TIMEOUT_MS). */
    private readonly ackTimeoutMs = ACK_TIMEOUT_MS,
  ) {}

  /** Listens for relayed messages; `listening` runs each time the LISTEN connection is (re)established. */
  start(listening: (pid: number, again: boolean) => void): () => void {
    return this.messaging.listen(channelOf(this.directory.instance), {
      message: (payload) => this.receive(payload),
      listening: (pid, again) => {
        // Messages sent while the connection was down are lost: the relays in progress cannot finish.
        if (again) this.abandonAll('the connection to the database was lost');
        listening(pid, again);
      },
    });
  }

  /** Relays `req` for `sessionId` to `owner`, the instance holding it; resolves to its answer. */
  async forward(owner: string, sessionId: string, req: Request, caller?: Caller, authInfo?: AuthInfo): Promise<Response> {
    const r = randomUUID();
    const body = req.method === 'POST' ? await req.text() : undefined;
    const trace: Record<string, string> = {};
    propagation.inject(context.active(), trace);
    const request: RelayedRequest = {
      sessionId,
      method: req.method,
      url: req.url,
      headers: relayedHeaders(req.headers),
      ...(body !== undefined ? { body } : {}),
      ...(caller ? { caller } : {}),
      ...(authInfo ? { authInfo: { ...authInfo, token: '' } } : {}),
      ...(Object.keys(trace).length ? { trace } : {}),
    };
    let acknowledged!: () => void;
    const received = new Promise<typeof ACKNOWLEDGED>((resolve) => {
      acknowledged = () => resolve(ACKNOWLEDGED);
    });
    let relay!: Forwarded;
    const answer = new Promise<Response>((resolve, reject) => {
      relay = { owner, method: req.method, head: { resolve, reject }, acknowledged, started: false, lastHeard: Date.now() };
      this.forwarded.set(r, relay);
    });
    const opened = this.send(owner, { k: 'open', r, from: this.directory.instance, request, v: RELAY_VERSION });
    // A client that leaves stops the owner too (the cancel is sent after the open, so it arrives after it).
    req.signal?.addEventListener('abort', () => void opened.then(() => this.cancel(r)).catch(() => undefined), { once: true });
    try {
      await opened;
    } catch (error) {
      this.finish(r);
      throw error;
    }
    const first = await within(Promise.race([answer, received]), this.ackTimeoutMs);
    if (first === LATE) return this.notTaken(r);
    // An older owner answers without acknowledging first.
    if (first !== ACKNOWLEDGED) return first;
    return this.goAhead(r, relay, answer);
  }

  /** Removes relayed payloads stored before `time` that nobody picked up (the instance they were for stopped). */
  async pruneBefore(time: number): Promise<void> {
    await this.driver.record((query) => query('DELETE FROM gateway_mcp_relay_payloads WHERE created_at < ?', [time]));
  }

  /**
   * Shutdown: the standalone GET streams this instance relays end at once (their clients reconnect elsewhere, and their
   * owners stop sending). The requests it relays (POST, DELETE) run to their answers within the grace, like the
   * requests it serves itself: their owners may have started the work already, so a 503 now would invite a retry the
   * owner refuses (the same JSON-RPC id still in progress). The answers this instance sends as an owner finish too.
   */
  drain(): void {
    for (const [r, relay] of [...this.forwarded]) {
      if (relay.method !== 'GET') continue;
      this.abandon(r, 'the server is shutting down');
      void this.send(relay.owner, { k: 'cancel', r }).catch(() => undefined);
    }
  }

  /**
   * No acknowledgement in time: the owner did not take the request, and never will (the cancel reaches it before any
   * go could). 404 if it stopped (its sessions are gone), else 503: nothing was done, a retry is safe.
   */
  private async notTaken(r: string): Promise<Response> {
    const owner = this.forwarded.get(r)?.owner;
    await this.cancel(r);
    if (owner && !(await this.directory.isRunning(owner))) {
      await this.directory.pruneStopped();
      return sessionNotFound();
    }
    return ownerNotAnswering();
  }

  /**
   * Tells the owner to start, then waits for its answer as long as the owner runs (asked every ackTimeoutMs), however
   * long the work takes: it may act on the request from now on, so there is no 503 any more. An owner that stops first:
   * 502 for a POST or DELETE (it may have been carried out), 404 for a GET stream (the session is gone with it).
   */
  private async goAhead(r: string, relay: Forwarded, answer: Promise<Response>): Promise<Response> {
    relay.started = true;
    try {
      await this.send(relay.owner, { k: 'go', r });
    } catch (error) {
      // Without its go the owner never starts (it answers 503 to nobody): the lane's 503 is true.
      this.finish(r);
      throw error;
    }
    for (;;) {
      const answered = await within(answer, this.ackTimeoutMs);
      if (answered !== LATE) return answered;
      if (this.forwarded.get(r) !== relay) return clientLeft();
      if (await this.directory.isRunning(relay.owner).catch(() => true)) continue;
      // An answer that came while the owner was looked up wins.
      const last = await within(answer, 0);
      if (last !== LATE) return last;
      this.finish(r);
      await this.directory.pruneStopped().catch(() => undefined);
      if (relay.method === 'GET') return sessionNotFound();
      return relayedAnswerLost('the server instance holding this session stopped while working on it, and the session ended with it');
    }
  }

  private async send(instance: string, message: RelayMessage): Promise<void> {
    const json = JSON.stringify(message);
    if (Buffer.byteLength(json) <= NOTIFY_MAX_BYTES) return this.messaging.notify(channelOf(instance), json);
    const [{ id }] = await this.driver.record((query) =>
      query<{ id: string }>('INSERT INTO gateway_mcp_relay_payloads (payload, created_at) VALUES (?, ?) RETURNING CAST(id AS TEXT) AS id', [
        json,
        Date.now(),
      ]),
    );
    const ref: Notification = { k: 'ref', r: message.r, ref: id };
    await this.messaging.notify(channelOf(instance), JSON.stringify(ref));
  }

  private receive(payload: string): void {
    let notification: Notification;
    try {
      notification = JSON.parse(payload);
    } catch {
      return;
    }
    const { r } = notification;
    const next = (this.inbox.get(r) ?? Promise.resolve())
      .then(async () => this.handle(notification.k === 'ref' ? await this.take(notification.ref) : notification))
      .catch((error: Error) => console.error(`[gateway] A relayed MCP message could not be handled: ${error.message}`));
    this.inbox.set(r, next);
    void next.then(() => {
      if (this.inbox.get(r) === next) this.inbox.delete(r);
    });
  }

  /** Reads (and removes) a message that waited in the table. */
  private async take(ref: string): Promise<RelayMessage> {
    const rows = await this.driver.record((query) =>
      query<{ payload: string }>('DELETE FROM gateway_mcp_relay_payloads WHERE id = ? RETURNING payload', [Number(ref)]),
    );
    if (!rows.length) throw new Error(`relayed payload ${ref} is gone`);
    return JSON.parse(rows[0].payload);
  }

  private async handle(message: RelayMessage): Promise<void> {
    switch (message.k) {
      case 'open': {
        const served = this.serving(message.r, message.from);
        if ((message.v ?? 1) >= RELAY_VERSION) return this.acknowledge(message.r, served, message.request);
        return this.serve(message.r, served, message.request);
      }
      case 'go': {
        const served = this.served.get(message.r);
        const waiting = served?.awaitingGo;
        // Too late: the owner answered 503 already (or the request was cancelled).
        if (!served || !waiting) return;
        clearTimeout(waiting.timer);
        served.awaitingGo = undefined;
        return this.serve(message.r, served, waiting.request);
      }
      case 'cancel': {
        const served = this.served.get(message.r);
        if (!served) return;
        served.cancelled = true;
        if (served.awaitingGo) {
          // Never started: forgotten, and a go that would follow finds nothing.
          clearTimeout(served.awaitingGo.timer);
          this.served.delete(message.r);
          return;
        }
        await served.reader?.cancel().catch(() => undefined);
        return;
      }
      default:
        return this.answer(message);
    }
  }

  /** As the owner: a relay another instance started. */
  private serving(r: string, from: string): Served {
    const served: Served = { from, cancelled: false };
    this.served.set(r, served);
    return served;
  }

  /**
   * As the owner: acknowledges a request, which it starts at the go; without one in time it answers 503 itself, true
   * since it never started (a go that comes later finds nothing).
   */
  private async acknowledge(r: string, served: Served, request: RelayedRequest): Promise<void> {
    const timer = setTimeout(() => {
      if (served.awaitingGo?.timer !== timer) return;
      served.awaitingGo = undefined;
      void this.pump(r, served, ownerNotAnswering());
    }, this.ackTimeoutMs);
    timer.unref();
    served.awaitingGo = { request, timer };
    await this.send(served.from, { k: 'ack', r });
  }

  /** As the owner: serves a relayed request and sends its answer back piece by piece (not awaited: a cancel may follow). */
  private async serve(r: string, served: Served, request: RelayedRequest): Promise<void> {
    let response: Response;
    try {
      const { method, headers, body } = request;
      const init = { method, headers, ...(body !== undefined ? { body } : {}) };
      const traced = propagation.extract(ROOT_CONTEXT, request.trace ?? {});
      response = await context.with(traced, () => this.serveRelayed(request, new Request(request.url, init)));
    } catch (failure) {
      console.error('[gateway] A relayed MCP request failed:', failure);
      const error = { code: -32603, message: 'Internal error' };
      response = Response.json({ jsonrpc: '2.0', error, id: null }, { status: 500 });
    }
    void this.pump(r, served, response);
  }

  /** Sends the answer's head, then its body as it is produced, then the end; stops when the relaying instance stops. */
  private async pump(r: string, served: Served, response: Response): Promise<void> {
    const stop = () => {
      served.cancelled = true;
      void served.reader?.cancel().catch(() => undefined);
    };
    const watchdog = setInterval(() => void this.checkRunning(served.from, stop), SILENCE_CHECK_MS);
    watchdog.unref();
    try {
      const { status, body } = response;
      const head: RelayMessage = { k: 'head', r, status, headers: relayedHeaders(response.headers), body: body !== null };
      await this.send(served.from, head);
      // An answer without a body is complete with its head.
      if (!body) return;
      served.reader = body.getReader();
      if (served.cancelled) await served.reader.cancel();
      const decoder = new TextDecoder();
      for (let chunk = await served.reader.read(); !chunk.done; chunk = await served.reader.read()) {
        const d = decoder.decode(chunk.value, { stream: true });
        if (d) await this.send(served.from, { k: 'data', r, d });
      }
      if (!served.cancelled) await this.send(served.from, { k: 'end', r });
    } catch (error) {
      await served.reader?.cancel().catch(() => undefined);
      if (!served.cancelled) console.error(`[gateway] A relayed MCP answer could not be sent: ${(error as Error).message}`);
    } finally {
      clearInterval(watchdog);
      this.served.delete(r);
    }
  }

  /** As the instance that relayed: the owner's head becomes the client's response; data and end feed its body. */
  private answer(message: Exclude<RelayMessage, { k: 'open' | 'go' | 'cancel' }>): void {
    const relay = this.forwarded.get(message.r);
    if (!relay) return;
    relay.lastHeard = Date.now();
    if (message.k === 'ack') return relay.acknowledged();
    if (message.k === 'head') {
      const headers = new Headers(message.headers);
      if (!message.body) {
        this.forwarded.delete(message.r);
        return relay.head.resolve(new Response(null, { status: message.status, headers }));
      }
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => {
          relay.stream = controller;
        },
        cancel: () => void this.cancel(message.r),
      });
      relay.watchdog = setInterval(() => {
        if (Date.now() - relay.lastHeard < SILENCE_CHECK_MS) return;
        void this.checkRunning(relay.owner, () => this.abandon(message.r, 'the server instance holding the session stopped'));
      }, SILENCE_CHECK_MS);
      relay.watchdog.unref();
      return relay.head.resolve(new Response(body, { status: message.status, headers }));
    }
    if (message.k === 'data') return relay.stream?.enqueue(this.encoder.encode(message.d));
    relay.stream?.close();
    this.finish(message.r);
  }

  /** Tells the owner that nobody reads the answer of relay `r` any more. */
  private async cancel(r: string): Promise<void> {
    const owner = this.forwarded.get(r)?.owner;
    this.finish(r);
    if (owner) await this.send(owner, { k: 'cancel', r }).catch(() => undefined);
  }

  private finish(r: string): void {
    clearInterval(this.forwarded.get(r)?.watchdog);
    this.forwarded.delete(r);
  }

  /**
   * Ends relay `r` with an error (the client sees its stream break, and reconnects). Before its head, a POST or DELETE
   * the owner may be acting on is answered 502 instead: the lane would answer an error 503, which invites a retry.
   */
  private abandon(r: string, why: string): void {
    const relay = this.forwarded.get(r);
    if (!relay) return;
    this.finish(r);
    if (relay.started && relay.method !== 'GET') {
      relay.head.resolve(relayedAnswerLost(`${why} while the server instance holding this session worked on it`));
    }
    const error = new Error(`Relay ended: ${why}`);
    relay.head.reject(error);
    try {
      relay.stream?.error(error);
    } catch {
      // already closed
    }
  }

  private abandonAll(why: string): void {
    for (const r of [...this.forwarded.keys()]) this.abandon(r, why);
  }

  /** Runs `onStopped` when `instance` no longer runs. */
  private async checkRunning(instance: string, onStopped: () => void): Promise<void> {
    if (!(await this.directory.isRunning(instance).catch(() => true))) onStopped();
  }
}
