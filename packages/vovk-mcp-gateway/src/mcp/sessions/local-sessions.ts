// The 2025-era MCP sessions this instance holds: an SDK streamable HTTP transport and an McpServer each, bound to the
// principal that started it, closed when idle, bounded in number (in all, and per caller: its longest-unused one goes).
import 'server-only';
import { randomUUID } from 'node:crypto';
import {
  type HandleRequestOptions,
  type McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { whenBodyEnds } from '../../http/body-end.js';
import { forwardListChanges } from '../list-changes.js';
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

interface HeldSession {
  readonly id: string;
  readonly principal: string;
  /** Who started it, as per-caller bounds count (guards' `callerKeyOf`). */
  readonly callerKey: string;
  /** When its last request came (performance.now()): a caller over its share loses the one used longest ago. */
  lastUsedAt: number;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly events: SessionEventStore;
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

  /**
   * Serves an `initialize`: starts a session held by `principal` for the caller `callerKey` — ending that caller's
   * longest-unused sessions first when it holds its share — or answers 503 when this instance holds its limit.
   */
  async start(
    req: Request,
    { principal, callerKey }: { principal: string; callerKey: string },
    requestOptions: HandleRequestOptions,
  ): Promise<Response> {
    if (this.draining) return tooManySessions(this.options.max);
    await this.makeRoomFor(callerKey);
    if (this.sessions.size + this.starting >= this.options.max) return tooManySessions(this.options.max);
    this.starting++;
    const id = randomUUID();
    try {
      try {
        await this.options.announce?.(id, principal);
      } catch (error) {
        console.error(`[gateway] An MCP session could not be recorded: ${(error as Error).message}`);
        return sessionsUnavailable();
      }
      const events = this.options.events.forSession(id);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        eventStore: events,
        retryInterval: RECONNECT_AFTER_MS,
      });
      const server = this.options.makeServer();
      await server.connect(transport);
      if (this.options.traced) traceSessionMessages(transport);
      const lastUsedAt = performance.now();
      const session: HeldSession = { id, principal, callerKey, lastUsedAt, transport, server, events, inFlight: 0, unanswered: new Set() };
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
      const response = await this.serveHeld(session, req, requestOptions);
      // Refused before it started (not acceptable, not JSON-RPC, …): no session.
      if (transport.sessionId === undefined) await this.close(id);
      return response;
    } finally {
      this.starting--;
    }
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
      const owned = await session.events.owns(lastEventId).catch(() => undefined);
      if (owned === undefined) return sessionsUnavailable();
      if (!owned) return foreignLastEventId();
    }
    const response = await this.serveHeld(session, req, requestOptions);
    // Refused before they reached the server (403 insufficient_scope, 406, …): their ids may be sent again.
    if (response.status !== 200) for (const requestId of ids) session.unanswered.delete(requestId);
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
    session.idleTimer = setTimeout(() => void this.close(session.id), this.options.idleMs);
    session.idleTimer.unref();
  }

  /** Forgets a closed session, here and in the database (its events, its record). */
  private forget(session: HeldSession): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    clearTimeout(session.idleTimer);
    session.closed ??= Promise.resolve();
    const cleanUp = [this.options.events.dropSession(session.id), this.options.retract?.(session.id)];
    void Promise.all(cleanUp)
      .catch((error: Error) => console.error(`[gateway] A closed MCP session stays in the database: ${error.message}`))
      .finally(() => {
        if (this.draining && this.sessions.size === 0) this.drained?.();
      });
  }
}
