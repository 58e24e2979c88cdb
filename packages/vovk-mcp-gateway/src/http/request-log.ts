// One structured log line per request of either door: door, route or tool, client, status, duration, masked error ids,
// and the trace id when tracing is on.
import 'server-only';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { config } from '../config.js';
import type { RequestContext } from '../request-context.js';
import { whenBodyEnds } from './body-end.js';
import { clientAddress } from './peer-address.js';

/** Writes `{"msg":"request","door":…,"method":…,"path":…,"tool":…,"status":…,"ms":…,"errorIds":…}` to stdout. */
function logRequest(
  req: Request,
  context: RequestContext | undefined,
  status: number,
  startedAt: number,
  aborted: boolean,
  traceId: string | undefined,
): void {
  const entry = {
    time: new Date().toISOString(),
    msg: 'request',
    door: context?.door,
    method: req.method,
    path: new URL(req.url).pathname,
    client: clientAddress(req, config().trustProxy),
    ...(context?.calledTool ? { tool: context.calledTool } : {}),
    status,
    ms: Math.round((performance.now() - startedAt) * 10) / 10,
    ...(context?.caller?.subject ? { subject: context.caller.subject } : {}),
    ...(context?.maskedErrorIds.length ? { errorIds: context.maskedErrorIds } : {}),
    ...(aborted ? { aborted: true } : {}),
    ...(traceId ? { traceId } : {}),
  };
  console.log(JSON.stringify(entry));
}

/** The trace id of the active span, when tracing is on. */
function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? span.traceId : undefined;
}

/**
 * Writes one line for a tool call made inside another tool (code mode's `execute`):
 * `{"msg":"tool call","door":"mcp","tool":…,"through":…,"ok":…,"ms":…}` with the caller's subject and the trace id.
 */
export function logToolCall(call: { tool: string; through: string; ok: boolean; ms: number }, context: RequestContext | undefined): void {
  const traceId = activeTraceId();
  const entry = {
    time: new Date().toISOString(),
    msg: 'tool call',
    door: context?.door,
    ...call,
    ms: Math.round(call.ms * 10) / 10,
    ...(context?.caller?.subject ? { subject: context.caller.subject } : {}),
    ...(traceId ? { traceId } : {}),
  };
  console.log(JSON.stringify(entry));
}

/**
 * `response`, logged once its body has been sent (or at once without one): streamed MCP replies and the board stream
 * are logged when they end — with their whole duration and every error masked meanwhile — or when the client leaves.
 */
export function loggedResponse(req: Request, context: RequestContext | undefined, response: Response, startedAt: number): Response {
  // With tracing on, the line names the request's trace (read now: the body may end outside the span's context).
  const traceId = activeTraceId();
  return whenBodyEnds(response, (aborted) => logRequest(req, context, response.status, startedAt, aborted, traceId));
}
