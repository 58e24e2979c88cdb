// The session lane of the one MCP route: 2025-era requests that need a session (initialize, and requests naming one)
// are served by the SDK's streamable HTTP transport — here, or relayed to the instance holding the session — and
// everything else by the stateless handler as before.
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
import { malformedSessionId, sessionNotFound, sessionsUnavailable } from './session-answers.js';
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
  /** MCP_MAX_SESSIONS, MCP_MAX_SESSIONS_PER_CALLER, MCP_SESSION_IDLE_SECONDS and MCP_RELAY_ACK_TIMEOUT_MS. */
  sessions: { max: number; maxPerCaller: number; idleMs: number; relayAckTimeoutMs: number };
  /** MCP_MAX_BODY_BYTES: the bound under which bodies are read to route them. */
  maxBodyBytes: number;
  /** The gateway's database (opened with the first session): the sessions keep their events (and, on PostgreSQL, their directory) there. */
  database: () => SqlDriver;
  /** Whether tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): a span for each MCP message of a session. */
  traced: boolean;
}

type Handler = (req: Request) => Promise<Response>;

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

/** Serves one request that needs a session (see `sessionRequestOf`). */
type SessionServe = (req: Request, sessionRequest: SessionRequest) => Promise<Response>;

/**
 * The sessions of this instance, opened on the first request that needs one: their event log and (on PostgreSQL)
 * directory and relay in the gateway's database, migrated, pruned every minute, drained at shutdown.
 */
function openSessionLane(options: SessionLaneOptions): SessionServe {
  const { gateway, serverInfo, traced } = options;
  const driver = options.database();
  const { relayAckTimeoutMs, ...sessions } = options.sessions;
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

  const serve = async (req: Request, { sessionId, parsedBody }: SessionRequest): Promise<Response> => {
    noteCalledTool(parsedBody);
    const caller = requestContext()?.caller;
    const principal = principalOf(caller);
    const authInfo = (req as Request & { auth?: AuthInfo }).auth;
    const requestOptions = { parsedBody, authInfo };
    if (sessionId === undefined) return local.start(req, { principal, callerKey: callerKeyOf(req) }, requestOptions);
    if (!SESSION_ID.test(sessionId)) return malformedSessionId();
    if (local.has(sessionId) || !directory || !relay) return local.serve(sessionId, req, principal, requestOptions);
    try {
      const record = await directory.find(sessionId);
      if (!record || record.principal !== principal || record.owner === instance) return sessionNotFound();
      return await relay.forward(record.owner, sessionId, req, caller, authInfo);
    } catch (error) {
      console.error(`[gateway] A request for MCP session ${sessionId} could not be relayed: ${(error as Error).message}`);
      return sessionsUnavailable();
    }
  };

  return serve;
}

/**
 * The MCP route's handler: `stateless` (mcp-handler) for everything but the requests that need a session, which go
 * to the sessions this instance holds — or, on PostgreSQL, are relayed to the instance holding theirs. Nothing is
 * opened until a request needs a session: loading the route (`next build`, `vovk-mcp-gateway tools`) opens no database.
 */
export function withSessionLane(stateless: Handler, options: SessionLaneOptions): Handler {
  let serve: SessionServe | undefined;
  return async (req) => {
    const sessionRequest = await sessionRequestOf(req, options.maxBodyBytes);
    if (!sessionRequest) return stateless(req);
    serve ??= openSessionLane(options);
    const response = await serve(req, sessionRequest);
    // A session's standalone stream (GET) never outlives the token it was opened with.
    return req.method === 'GET' ? endingAtExpiry(response, (req as Request & { auth?: AuthInfo }).auth?.expiresAt) : response;
  };
}
