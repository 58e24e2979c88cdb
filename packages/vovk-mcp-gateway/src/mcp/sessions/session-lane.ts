// The session lane of the MCP route: 2025-era requests that need a session (initialize, and requests naming one)
// are served by the SDK's streamable HTTP transport — here, or relayed to the instance holding the session — and
// everything else by the stateless handler as before. The HTTP+SSE routes (revision 2024-11-05) are two more doors to
// the same sessions: a GET opens one with its event stream, and its POSTed messages travel as a session's requests do.
import 'server-only';
import { endingAtExpiry } from '../../auth/token-expiry.js';
import { randomBytes } from 'node:crypto';
import { type AuthInfo, type Implementation, isLegacyRequest, McpServer } from '@modelcontextprotocol/server';
import { migrateGateway } from '../../db/database.js';
import type { SqlDriver } from '../../db/driver.js';
import { callerKeyOf } from '../../http/guards.js';
import { onShutdown } from '../../lifecycle.js';
import { principalOf, requestContext, runInRequestContext } from '../../request-context.js';
import { calledToolOf } from '../../catalogue/surface-tools.js';
import type { GatewayServer } from '../gateway-server.js';
import { messagesOf, parsedJson } from './json-rpc-body.js';
import { LocalSessions } from './local-sessions.js';
import { malformedSessionId, missingSessionQuery, sessionNotFound, sessionsUnavailable } from './session-answers.js';
import { SessionDirectory } from './session-directory.js';
import { SessionEventLog } from './session-events.js';
import { PAYLOAD_RETENTION_MS, type RelayedRequest, SessionRelay } from './session-relay.js';

/** The session ids this server gives out (`randomUUID`); anything else cannot be one of its sessions. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** How often stale session data (old events, stopped instances, lost relay payloads) is removed from the database. */
const PRUNE_EVERY_MS = 60_000;
/** Events are kept at least this long (ms), and at least the idle time of a session. */
const MIN_EVENT_RETENTION_MS = 60_000;
/** The one protocol revision whose requests never need a session: no need to read their bodies to route them. */
const MODERN_REVISION = '2026-07-28';

interface SessionLaneOptions {
  gateway: GatewayServer;
  serverInfo: Implementation;
  /** MCP_MAX_SESSIONS, MCP_MAX_SESSIONS_PER_CALLER, MCP_SESSION_IDLE_SECONDS, MCP_RELAY_ACK_TIMEOUT_MS, MCP_SSE_HEARTBEAT_SECONDS. */
  sessions: { max: number; maxPerCaller: number; idleMs: number; relayAckTimeoutMs: number; heartbeatMs?: number };
  /** MCP_MAX_BODY_BYTES: the bound under which bodies are read to route them. */
  maxBodyBytes: number;
  /** The gateway's database (opened with the first session): the sessions keep their events (and, on PostgreSQL, their directory) there. */
  database: () => SqlDriver;
  /** Whether tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): a span for each MCP message of a session. */
  traced: boolean;
}

type Handler = (req: Request) => Promise<Response>;

/** The sessions' handlers: the MCP route's lane, and the two routes of the HTTP+SSE transport. */
export interface SessionLane {
  /** The MCP route: `stateless` for everything but the requests that need a session. */
  route: (stateless: Handler) => Handler;
  /** `GET /api/sse`: opens an HTTP+SSE session; its answer is the event stream. */
  openEventStream: Handler;
  /** `POST /api/message?sessionId=…`: one message of an HTTP+SSE session (202; the answer comes on the stream). */
  postMessage: Handler;
}

/** An HTTP+SSE stream's heartbeat when the settings name none (MCP_SSE_HEARTBEAT_SECONDS' default). */
const DEFAULT_HEARTBEAT_MS = 15_000;
/** Where an HTTP+SSE stream tells its client to POST: the message route beside the stream's (`/api/sse` → `/api/message`). */
const MESSAGE_ROUTE = 'message';

/** The verified token of a request, as the guards left it for the SDK. */
const authOf = (req: Request) => (req as Request & { auth?: AuthInfo }).auth;

/** A request for the session lane: the session it names (none for an initialize) and its body, parsed once. */
interface SessionRequest {
  sessionId?: string;
  parsedBody?: unknown;
}

/**
 * Whether `req` needs a session: it is a 2025-era request (the SDK's own `isLegacyRequest`, which the stateless handler
 * routes by too) and either an initialize or a request naming a session (`Mcp-Session-Id`, on POST, GET or DELETE).
 */
async function sessionRequestOf(req: Request, maxRequestBodySize: number): Promise<SessionRequest | undefined> {
  const sessionId = req.headers.get('mcp-session-id') ?? undefined;
  if (req.method === 'POST') {
    if (sessionId === undefined && req.headers.get('mcp-protocol-version') === MODERN_REVISION) return undefined;
    const text = await req.clone().text();
    // Most requests are no initialize: a look for the word spares parsing them twice.
    if (sessionId === undefined && !text.includes('"initialize"')) return undefined;
    const parsedBody = parsedJson(text);
    if (sessionId === undefined && !messagesOf(parsedBody).some((message) => message.method === 'initialize')) return undefined;
    return (await isLegacyRequest(req, parsedBody, { maxRequestBodySize })) ? { sessionId, parsedBody } : undefined;
  }
  if (sessionId === undefined || (req.method !== 'GET' && req.method !== 'DELETE')) return undefined;
  return (await isLegacyRequest(req, undefined, { maxRequestBodySize })) ? { sessionId } : undefined;
}

/** Names the called tool in the request's context (its log line), as mcp-handler's `onEvent` does on the stateless lane. */
function noteCalledTool(parsedBody: unknown): void {
  const context = requestContext();
  const call = messagesOf(parsedBody).find((message) => message.method === 'tools/call');
  if (context) Object.assign(context, calledToolOf(call?.params));
}

/**
 * The sessions of this instance, opened on the first request that needs one: their event log and (on PostgreSQL)
 * directory and relay in the gateway's database, migrated, pruned every minute, drained at shutdown; how a request
 * of a session is served, and how an HTTP+SSE stream opens one.
 */
function openSessions(options: SessionLaneOptions) {
  const { gateway, serverInfo, traced } = options;
  const driver = options.database();
  const { relayAckTimeoutMs, heartbeatMs = DEFAULT_HEARTBEAT_MS, ...sessions } = options.sessions;
  const events = new SessionEventLog(driver);
  const instance = randomBytes(8).toString('hex');
  const directory = driver.messaging && new SessionDirectory(driver, driver.messaging, instance);
  const local = new LocalSessions({
    ...sessions,
    events,
    traced,
    makeServer: () => {
      const server = new McpServer(serverInfo, gateway.serverOptions);
      gateway.setupSession(server);
      return server;
    },
    ...(directory && {
      announce: (id, principal) => directory.register([{ id, principal }]),
      retract: (id) => directory.remove(id),
    }),
  });

  /** As the instance holding a session: serves a request another instance relayed, as its caller. */
  const serveRelayed = (request: RelayedRequest, http: Request) =>
    runInRequestContext(
      'mcp',
      () => {
        const context = requestContext();
        if (context && request.caller) context.caller = request.caller;
        const parsedBody = parsedJson(request.body);
        noteCalledTool(parsedBody);
        return local.serve(request.sessionId, http, principalOf(request.caller), { parsedBody, authInfo: request.authInfo });
      },
      http,
    );
  const relay = directory && driver.messaging && new SessionRelay(driver, driver.messaging, directory, serveRelayed, relayAckTimeoutMs);

  const ready = migrateGateway(driver);
  void ready.then(
    () =>
      relay?.start((pid, again) => {
        // Recorded as running (again); after an outage its sessions may have been pruned by another instance.
        void directory
          ?.announce(pid)
          .then(() => (again ? directory.register(local.held()) : undefined))
          .catch((error: Error) => console.error(`[gateway] This instance is not recorded for MCP sessions: ${error.message}`));
      }),
    () => undefined,
  );
  const retentionMs = Math.max(sessions.idleMs, MIN_EVENT_RETENTION_MS);
  const prune = () =>
    ready
      .then(async () => {
        await events.pruneBefore(Date.now() - retentionMs);
        await directory?.pruneStopped();
        await relay?.pruneBefore(Date.now() - PAYLOAD_RETENTION_MS);
      })
      .catch((error: Error) => console.error(`[gateway] Stale MCP session data could not be removed: ${error.message}`));
  void prune();
  setInterval(prune, PRUNE_EVERY_MS).unref();
  onShutdown(() => {
    relay?.drain();
    return local.drain();
  });

  /** Serves a request of session `sessionId` (a well-formed id): held in this process, else relayed to its holder. */
  const serveNamed = async (req: Request, sessionId: string, parsedBody: unknown): Promise<Response> => {
    const caller = requestContext()?.caller;
    const principal = principalOf(caller);
    const requestOptions = { parsedBody, authInfo: authOf(req) };
    const holder = local.has(sessionId) ? local : LocalSessions.holding(sessionId);
    if (holder || !directory || !relay) return (holder ?? local).serve(sessionId, req, principal, requestOptions);
    try {
      const record = await directory.find(sessionId);
      if (!record || record.principal !== principal || record.owner === instance) return sessionNotFound();
      return await relay.forward(record.owner, sessionId, req, caller, requestOptions.authInfo);
    } catch (error) {
      console.error(`[gateway] A request for MCP session ${sessionId} could not be relayed: ${(error as Error).message}`);
      return sessionsUnavailable();
    }
  };

  const serve = async (req: Request, { sessionId, parsedBody }: SessionRequest): Promise<Response> => {
    noteCalledTool(parsedBody);
    if (sessionId !== undefined) return SESSION_ID.test(sessionId) ? serveNamed(req, sessionId, parsedBody) : malformedSessionId();
    const principal = principalOf(requestContext()?.caller);
    return local.start(req, { principal, callerKey: callerKeyOf(req) }, { parsedBody, authInfo: authOf(req) });
  };

  /** Opens an HTTP+SSE session of the request's caller: its event stream names where to POST its messages. */
  const openEventStream = async (req: Request) => {
    const owner = { principal: principalOf(requestContext()?.caller), callerKey: callerKeyOf(req) };
    const messagePath = new URL(MESSAGE_ROUTE, req.url).pathname;
    const endpointOf = (sessionId: string) => `${messagePath}?sessionId=${sessionId}`;
    return local.openEventStream(owner, { endpointOf, heartbeatMs });
  };

  return { serve, serveNamed, openEventStream };
}

/**
 * The session lane: requests that need a session go to the sessions this instance holds — or, on PostgreSQL, are
 * relayed to the instance holding theirs. Nothing is opened until a request needs a session: loading the route
 * (`next build`, `vovk-mcp-gateway tools`) opens no database.
 */
export function createSessionLane(options: SessionLaneOptions): SessionLane {
  let opened: ReturnType<typeof openSessions> | undefined;
  const sessions = () => (opened ??= openSessions(options));
  // A session's streams (a standalone GET, an HTTP+SSE stream) never outlive the token they were opened with.
  const endingWithToken = (req: Request, response: Response) => endingAtExpiry(response, authOf(req)?.expiresAt);

  return {
    route: (stateless) => async (req) => {
      const sessionRequest = await sessionRequestOf(req, options.maxBodyBytes);
      if (!sessionRequest) return stateless(req);
      const response = await sessions().serve(req, sessionRequest);
      return req.method === 'GET' ? endingWithToken(req, response) : response;
    },
    openEventStream: async (req) => endingWithToken(req, await sessions().openEventStream(req)),
    postMessage: async (req) => {
      const sessionId = new URL(req.url).searchParams.get('sessionId');
      if (!sessionId) return missingSessionQuery();
      // An id no session of this server can have names no session: 404, as an ended one.
      if (!SESSION_ID.test(sessionId)) return sessionNotFound();
      const parsedBody = parsedJson(await req.clone().text());
      noteCalledTool(parsedBody);
      return sessions().serveNamed(req, sessionId, parsedBody);
    },
  };
}
