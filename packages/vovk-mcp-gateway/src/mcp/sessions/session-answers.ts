// The session lane's own HTTP answers: JSON-RPC errors with the status the transport spec asks for, and why.
import 'server-only';

/** Error code of an unknown session (the SDK's own transport uses it too). */
const SESSION_NOT_FOUND = -32001;
const SERVER_ERROR = -32000;
const INVALID_REQUEST = -32600;

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}

/** 404: the id names no session this caller may use — the client starts a new one with `initialize`. */
export const sessionNotFound = () =>
  jsonRpcError(404, SESSION_NOT_FOUND, 'Session not found: it ended, expired or never existed. Send initialize to start a new session.');

/** 400: an `Mcp-Session-Id` that no session of this server can have. */
export const malformedSessionId = () =>
  jsonRpcError(400, INVALID_REQUEST, 'Bad Request: the Mcp-Session-Id header is not a session id of this server (a UUID)');

/** 400: a message of an HTTP+SSE session POSTed without the session it belongs to. */
export const missingSessionQuery = () =>
  jsonRpcError(
    400,
    INVALID_REQUEST,
    'Bad Request: the sessionId query parameter is required: POST to the endpoint the event stream (GET /api/sse) sent first',
  );

/** 400: a `Last-Event-ID` that is not an event of this session. */
export const foreignLastEventId = () =>
  jsonRpcError(
    400,
    INVALID_REQUEST,
    'Bad Request: the Last-Event-ID header names no event of this session (another session’s, expired or unknown): nothing to replay',
  );

/** 400: a request whose JSON-RPC id is the id of another request of the session still in progress. */
export const duplicateRequestId = () =>
  jsonRpcError(400, INVALID_REQUEST, 'Bad Request: a request of this session with the same JSON-RPC id is still in progress; use a new id');

/** How long a client is asked to wait before trying to start a session again when they are all taken. */
const FULL_RETRY_AFTER_SECONDS = 10;

/** 503: this instance holds as many sessions as it may; the ones it holds keep working. */
export const tooManySessions = (max: number) =>
  jsonRpcError(
    503,
    SERVER_ERROR,
    `Too many sessions: this server holds its limit of ${max} MCP sessions (MCP_MAX_SESSIONS). Retry later, or end unused sessions with DELETE.`,
    { 'Retry-After': String(FULL_RETRY_AFTER_SECONDS) },
  );

/** 503: the database the sessions are kept in cannot be reached now. */
export const sessionsUnavailable = () =>
  jsonRpcError(503, SERVER_ERROR, 'Sessions are unavailable right now (the database cannot be reached): try again in a few seconds', {
    'Retry-After': '2',
  });

/** 503: the instance holding the session runs but did not take the relayed request in time: nothing was done. */
export const ownerNotAnswering = () =>
  jsonRpcError(503, SERVER_ERROR, 'The server instance holding this session did not answer in time: try again', { 'Retry-After': '1' });

/** 502: a relayed request's answer cannot come any more, `why`, though the instance holding the session had started it. */
export const relayedAnswerLost = (why: string) =>
  jsonRpcError(502, SERVER_ERROR, `The answer to this request was lost: ${why}. It may have been carried out: check before sending it again.`);
