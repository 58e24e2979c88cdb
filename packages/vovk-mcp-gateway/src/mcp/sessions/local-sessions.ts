// The 2025-era MCP sessions this instance holds: an SDK streamable HTTP transport and an McpServer each, bound to the
// principal that started it, closed when idle, bounded in number (in all, and per caller: its longest-unused one goes).
// An HTTP+SSE session (revision 2024-11-05) is one of them whose messages travel over its event stream instead.
import 'server-only';
import { randomUUID } from 'node:crypto';
import {
  type HandleRequestOptions,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { whenBodyEnds } from '../../http/body-end.js';
import { runWithRequest } from '../../request-context.js';
import { forwardListChanges } from '../list-changes.js';
import { EventStreamWire, type EventStreamWireOptions } from './event-stream-wire.js';
import { type JsonRpcMessage, messagesOf } from './json-rpc-body.js';
import {
  duplicateRequestId,
  foreignLastEventId,
  sessionNotFound,
  sessionsUnavailable,
  tooManySessions,
} from './session-answers.js';
import type { SessionEventLog, SessionEventStore } from './session-events.js';
import { traceSessionMessages } from './session-tracing.js';

/** How long (ms) a client waits before it reconnects a stream the server closed (SSE `retry`). */
const RECONNECT_AFTER_MS = 1000;
/** An SSE comment: clients skip it. */
const STREAM_OPENED = new TextEncoder().encode(': open\n\n');

/**
 * An SSE answer that starts with a comment, so that its headers reach the client at once: Next.js sends them with the
 * first bytes of the body, and a standalone GET stream may carry nothing for a long time (its first keep-alive: 15 s).
 */
function openedAtOnce(response: Response): Response {
  if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  const opening = new TransformStream<Uint8Array, Uint8Array>({ start: (controller) => controller.enqueue(STREAM_OPENED) });
  const body = response.body.pipeThrough(opening);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** A JSON-RPC id as a key (`number:1` and `string:1` differ), or undefined when it is no id. */
const idKey = (id: unknown) => (typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${id}` : undefined);

/** The ids of the requests (not notifications, not answers) of a parsed POST body. */
const requestIdsOf = (body: unknown): string[] =>
  messagesOf(body).flatMap(({ id, method }) => (typeof method === 'string' && idKey(id) ? [idKey(id) as string] : []));

/** The ids of the requests a parsed POST body cancels (`notifications/cancelled`). */
const cancelledIdsOf = (body: unknown): unknown[] =>
  messagesOf(body).flatMap(({ method, params }) =>
    method === 'notifications/cancelled' ? [(params as { requestId?: unknown } | undefined)?.requestId] : [],
  );

/** Every message the server sends on the session goes on `wire` too (the transport's own streams are not read). */
function carryOnWire(transport: WebStandardStreamableHTTPServerTransport, wire: EventStreamWire): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    wire.send(message);
    return send(message, options);
  };
}

/** What a message POSTed to an HTTP+SSE session gets once the server took it: its answer comes on the stream. */
const accepted = () => new Response('Accepted', { status: 202 });

/**
 * The HTTP+SSE sessions of this process by id, whichever copy of this module holds them: each route file of an app is
 * bundled with its own copy, and the stream (`GET /api/sse`) and its messages (`POST /api/message`) are two routes.
 */
const wireSessionsKey = Symbol.for('vovk-gateway.event-stream-sessions');
type GlobalWithWireSessions = typeof globalThis & { [wireSessionsKey]?: Map<string, LocalSessions> };
const wireSessions = ((globalThis as GlobalWithWireSessions)[wireSessionsKey] ??= new Map<string, LocalSessions>());

/** Removes a request's id from `unanswered` when the server sends its answer. */
function forgetAnswered(transport: WebStandardStreamableHTTPServerTransport, unanswered: Set<string>): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const { id, method } = message as JsonRpcMessage;
    const key = idKey(id);
    if (method === undefined && key) unanswered.delete(key);
    return send(message, options);
  };
}

/** Who a session is held for: its principal, and its caller as per-caller bounds count it. */
interface SessionOwner {
  principal: string;
  callerKey: string;
}

interface HeldSession {
  readonly id: string;
  readonly principal: string;
  /** Who started it, as per-caller bounds count (guards' `callerKeyOf`). */
  readonly callerKey: string;
  /** When its last request came (performance.now()): a caller over its share loses the one used longest ago. */
  lastUsedAt: number;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  /** Its stored events, for resumable streams (none for an HTTP+SSE session: its stream cannot be resumed). */
  readonly events?: SessionEventStore;
  /** The event stream of an HTTP+SSE session: every message the server sends goes there. */
  readonly wire?: EventStreamWire;
  /** Its requests being served: a streamed answer counts until it ends (the standalone GET stream too). */
  inFlight: number;
  /** The JSON-RPC ids of the client's requests not answered yet: a client may not reuse one meanwhile. */
  readonly unanswered: Set<string>;
  idleTimer?: NodeJS.Timeout;
  /** Set once it is closing: resolves when it is closed and forgotten. */
  closed?: Promise<void>;
}

export interface LocalSessionsOptions {
  /** Most sessions held at once (MCP_MAX_SESSIONS). */
  max: number;
  /** Most sessions one caller holds at once (MCP_MAX_SESSIONS_PER_CALLER). */
  maxPerCaller: number;
  /** A session with no request in progress for this long is closed (MCP_SESSION_IDLE_SECONDS). */
  idleMs: number;
  /** A new session's MCP server, set up with the gateway's tools. */
  makeServer: () => McpServer;
  events: SessionEventLog;
  /** Records a new session where other instances can find it (PostgreSQL); throws when the database is down. */
  announce?: (sessionId: string, principal: string) => Promise<void>;
  /** Removes a session that ended from there. */
  retract?: (sessionId: string) => Promise<void>;
  /** Whether tracing is on: a span for each MCP message of a session. */
  traced?: boolean;
}

export class LocalSessions {
  private readonly sessions = new Map<string, HeldSession>();
  /** Sessions being started (their `initialize` in progress), counted against the limit. */
  private starting = 0;
  private draining = false;
  private drained?: () => void;

  constructor(private readonly options: LocalSessionsOptions) {}

  get size(): number {
    return this.sessions.size;
  }

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** The sessions held now, with the principal each is bound to. */
  held(): Array<{ id: string; principal: string }> {
    return [...this.sessions.values()].map(({ id, principal }) => ({ id, principal }));
  }

  /** The instance-local sessions of this process that hold HTTP+SSE session `sessionId`, in whichever route's bundle. */
  static holding(sessionId: string): LocalSessions | undefined {
    return wireSessions.get(sessionId);
  }

  /**
   * Serves an `initialize`: starts a session held by `owner.principal` for the caller `owner.callerKey` — ending that
   * caller's longest-unused sessions first when it holds its share — or answers 503 when this instance holds its limit.
   */
  async start(req: Request, owner: SessionOwner, requestOptions: HandleRequestOptions): Promise<Response> {
    return this.admitted(owner, async (id) => {
      const session = await this.create(id, owner, { events: this.options.events.forSession(id) });
      if (session instanceof Response) return session;
      const response = await this.serveHeld(session, req, requestOptions);
      // Refused before it started (not acceptable, not JSON-RPC, …): no session.
      if (session.transport.sessionId === undefined) await this.close(id);
      return response;
    });
  }

  /**
   * Opens an HTTP+SSE session (revision 2024-11-05) for `owner`, within the same bounds as {@link start}: its answer is
   * the event stream, which opens with the endpoint its messages go to; the session ends with the stream.
   */
  async openEventStream(owner: SessionOwner, wireOptions: Omit<EventStreamWireOptions, 'endpoint' | 'onClientGone'> & { endpointOf: (sessionId: string) => string }): Promise<Response> {
    return this.admitted(owner, async (id) => {
      const { endpointOf, heartbeatMs } = wireOptions;
      const wire = new EventStreamWire({ endpoint: endpointOf(id), heartbeatMs, onClientGone: () => void this.close(id) });
      const session = await this.create(id, owner, { wire });
      if (session instanceof Response) {
        wire.close();
        return session;
      }
      return wire.response;
    });
  }

  /** Serves a request of session `sessionId`; 404 unless this instance holds it for `principal`. */
  async serve(sessionId: string, req: Request, principal: string, requestOptions: HandleRequestOptions): Promise<Response> {
    const session = this.sessions.get(sessionId);
    if (!session || session.closed || session.principal !== principal) return sessionNotFound();
    // Two requests in progress with one id would get each other's answers (the transport maps answers by id).
    const ids = requestIdsOf(requestOptions.parsedBody);
    if (ids.some((requestId) => session.unanswered.has(requestId))) return duplicateRequestId();
    for (const requestId of ids) session.unanswered.add(requestId);
    const lastEventId = req.method === 'GET' ? req.headers.get('last-event-id') : null;
    if (lastEventId !== null) {
      const owned = await session.events?.owns(lastEventId).catch(() => undefined);
      if (owned === undefined) return sessionsUnavailable();
      if (!owned) return foreignLastEventId();
    }
    const response = session.wire ? await this.serveOverWire(session, req, requestOptions) : await this.serveHeld(session, req, requestOptions);
    // Refused before they reached the server (403 insufficient_scope, 406, …): their ids may be sent again.
    if (response.status !== (session.wire ? 202 : 200)) for (const requestId of ids) session.unanswered.delete(requestId);
    return response;
  }

  /** Closes a session: its streams end, its events are dropped, and its id answers 404 from then on. */
  close(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return Promise.resolve();
    if (!session.closed) session.closed = session.server.close().then(() => this.forget(session));
    return session.closed;
  }

  /**
   * Shutdown: no new sessions; every standalone GET stream ends (the client reconnects elsewhere) and each session
   * closes once its last request in progress has been answered. Resolves when every session is closed.
   */
  drain(): Promise<void> {
    this.draining = true;
    const done = new Promise<void>((resolve) => {
      this.drained = resolve;
    });
    for (const session of this.sessions.values()) {
      session.transport.closeStandaloneSSEStream();
      if (session.inFlight === 0) void this.close(session.id);
    }
    if (this.sessions.size === 0) this.drained?.();
    return done;
  }

  /** Runs `begin` with a new session id once `owner` may start a session (503 when this instance holds its limit). */
  private async admitted(owner: SessionOwner, begin: (id: string) => Promise<Response>): Promise<Response> {
    if (this.draining) return tooManySessions(this.options.max);
    await this.makeRoomFor(owner.callerKey);
    if (this.sessions.size + this.starting >= this.options.max) return tooManySessions(this.options.max);
    this.starting++;
    try {
      return await begin(randomUUID());
    } finally {
      this.starting--;
    }
  }

  /** A new session `id` held for `owner`, recorded where other instances find it; 503 when it cannot be recorded. */
  private async create(
    id: string,
    { principal, callerKey }: SessionOwner,
    { events, wire }: { events?: SessionEventStore; wire?: EventStreamWire },
  ): Promise<HeldSession | Response> {
    try {
      await this.options.announce?.(id, principal);
    } catch (error) {
      console.error(`[gateway] An MCP session could not be recorded: ${(error as Error).message}`);
      return sessionsUnavailable();
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      ...(events && { eventStore: events }),
      retryInterval: RECONNECT_AFTER_MS,
    });
    if (wire) carryOnWire(transport, wire);
    const server = this.options.makeServer();
    await server.connect(transport);
    if (this.options.traced) traceSessionMessages(transport);
    const lastUsedAt = performance.now();
    const session: HeldSession = { id, principal, callerKey, lastUsedAt, transport, server, events, wire, inFlight: 0, unanswered: new Set() };
    forgetAnswered(transport, session.unanswered);
    // The server set the transport's onclose when it connected: closed by DELETE, idleness or shutdown, it is forgotten.
    const closeServer = transport.onclose;
    const stopListChanges = forwardListChanges(server);
    transport.onclose = () => {
      stopListChanges();
      closeServer?.();
      this.forget(session);
    };
    this.sessions.set(id, session);
    if (wire) wireSessions.set(id, this);
    return session;
  }

  /**
   * Serves a message POSTed to an HTTP+SSE session as a request of the streamable transport (whose answer is read and
   * dropped: the same messages went on the wire as they were sent); 202 once the server took it, or the transport's
   * refusal (403 insufficient_scope, 400, …) as it is.
   */
  private async serveOverWire(session: HeldSession, req: Request, requestOptions: HandleRequestOptions): Promise<Response> {
    if (req.method !== 'POST') return sessionNotFound();
    const headers = new Headers(req.headers);
    headers.set('accept', 'application/json, text/event-stream');
    headers.set('mcp-session-id', session.id);
    const body = requestOptions.parsedBody === undefined ? await req.text() : undefined;
    // Its own request, which no client aborts: the POST is answered (and its connection may close) long before the call ends.
    const message = new Request(req.url, { method: 'POST', headers, body });
    const response = await runWithRequest(message, () => this.serveHeld(session, message, requestOptions));
    // A cancelled request gets no answer: its stream ends here, so that it no longer counts as in progress.
    for (const requestId of cancelledIdsOf(requestOptions.parsedBody)) {
      session.transport.closeSSEStream(requestId as string | number);
      const key = idKey(requestId);
      if (key) session.unanswered.delete(key);
    }
    if (response.status !== 200 || !response.body) return response;
    void response.body.pipeTo(new WritableStream()).catch(() => undefined);
    return accepted();
  }

  /** Ends the longest-unused sessions of `callerKey` until it holds fewer than its share (their ids answer 404 next). */
  private async makeRoomFor(callerKey: string): Promise<void> {
    const held = [...this.sessions.values()].filter((session) => session.callerKey === callerKey && !session.closed);
    const over = held.length - this.options.maxPerCaller + 1;
    if (over <= 0) return;
    const victims = held.sort((a, b) => a.lastUsedAt - b.lastUsedAt).slice(0, over);
    console.log(JSON.stringify({ time: new Date().toISOString(), msg: 'sessions of a caller over its share ended', count: victims.length }));
    await Promise.all(victims.map((session) => this.close(session.id)));
  }

  /** Serves a request of a held session, counting it in progress until its answer has been sent. */
  private async serveHeld(session: HeldSession, req: Request, requestOptions: HandleRequestOptions): Promise<Response> {
    session.inFlight++;
    session.lastUsedAt = performance.now();
    clearTimeout(session.idleTimer);
    let response: Response;
    try {
      response = await session.transport.handleRequest(req, requestOptions);
    } catch (error) {
      this.settle(session);
      throw error;
    }
    return whenBodyEnds(openedAtOnce(response), () => this.settle(session));
  }

  /** A request of `session` was answered: with none left it closes when draining, or after the idle time. */
  private settle(session: HeldSession): void {
    session.inFlight--;
    if (session.inFlight > 0 || session.closed) return;
    if (this.draining) {
      void this.close(session.id);
      return;
    }
    // An HTTP+SSE session lives as long as its stream.
    if (session.wire) return;
    session.idleTimer = setTimeout(() => void this.close(session.id), this.options.idleMs);
    session.idleTimer.unref();
  }

  /** Forgets a closed session, here and in the database (its events, its record). */
  private forget(session: HeldSession): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    if (session.wire) {
      wireSessions.delete(session.id);
      session.wire.close();
    }
    clearTimeout(session.idleTimer);
    session.closed ??= Promise.resolve();
    const cleanUp = [session.events && this.options.events.dropSession(session.id), this.options.retract?.(session.id)];
    void Promise.all(cleanUp)
      .catch((error: Error) => console.error(`[gateway] A closed MCP session stays in the database: ${error.message}`))
      .finally(() => {
        if (this.draining && this.sessions.size === 0) this.drained?.();
      });
  }
}
