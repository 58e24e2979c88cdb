// One OpenTelemetry span per MCP message of a session, with the attributes mcp-handler gives the stateless lane's
// (mcp-handler instruments only the servers it makes itself), in the trace of the HTTP request that carried it.
import 'server-only';
import { type Attributes, type Context, context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';

/** The tracer of the session lane (mcp-handler's spans are named `mcp-handler`). */
const TRACER_NAME = 'vovk-mcp-gateway';
/** The attribute mcp-handler names a call's outcome with, so that both lanes' spans are read alike. */
const OUTCOME = 'vercel.rpc.outcome';
const TARGET_ATTRIBUTES: Record<string, string> = { 'tools/call': 'gen_ai.tool.name', 'prompts/get': 'gen_ai.prompt.name' };
/** JSON-RPC errors that mean the request was wrong, not the server. */
const REQUEST_ERRORS = new Set([-32700, -32600, -32601, -32602]);
/** How a tool result that refuses its arguments begins (the SDK's wording). */
const INPUT_REFUSAL = /^(Input validation error:|Invalid arguments for tool)/;

interface Received {
  method: string;
  target?: string;
  id?: string;
  startTime: number;
  parent: Context;
}

type Answer = { result?: { isError?: boolean; content?: Array<{ text?: string }> }; error?: { code?: number } };

/** What became of a request: mcp-handler's outcome and error type. */
function outcomeOf(received: Received, answer: Answer | 'closed'): { outcome: string; errorType?: string } {
  if (answer === 'closed') return { outcome: 'execution_failure', errorType: 'internal_error' };
  if (answer.error) {
    return REQUEST_ERRORS.has(answer.error.code ?? 0)
      ? { outcome: 'request_error', errorType: 'invalid_request' }
      : { outcome: 'execution_failure', errorType: 'internal_error' };
  }
  if (received.method !== 'tools/call' || answer.result?.isError !== true) return { outcome: 'success' };
  if (INPUT_REFUSAL.test(answer.result.content?.[0]?.text ?? '')) return { outcome: 'request_error', errorType: 'invalid_request' };
  return { outcome: 'execution_failure', errorType: 'internal_error' };
}

function record(sessionId: string | undefined, received: Received, answer?: Answer | 'closed'): void {
  const { outcome, errorType } = answer === undefined ? { outcome: 'success' } : outcomeOf(received, answer);
  const attributes: Attributes = { 'mcp.method.name': received.method, [OUTCOME]: outcome };
  if (sessionId) attributes['mcp.session.id'] = sessionId;
  if (received.method === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
  if (received.target) attributes[TARGET_ATTRIBUTES[received.method]] = received.target;
  if (received.id !== undefined) attributes['jsonrpc.request.id'] = received.id;
  if (errorType) attributes['error.type'] = errorType;
  const name = received.target ? `${received.method} ${received.target}` : received.method;
  const span = trace
    .getTracer(TRACER_NAME)
    .startSpan(name, { kind: SpanKind.SERVER, startTime: received.startTime, attributes }, received.parent);
  if (outcome === 'execution_failure') span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Records a span for each message `transport` receives once its server is connected: a notification at once, a
 * request when its answer is sent (or the session closes first), as a child of the context it arrived in.
 */
export function traceSessionMessages(transport: Transport): void {
  const unanswered = new Map<string, Received>();
  const { onmessage, onclose } = transport;
  const send = transport.send.bind(transport);
  transport.onmessage = (message, extra) => {
    const received = 'method' in message ? receivedOf(message) : undefined;
    if (received?.id !== undefined) unanswered.set(received.id, received);
    try {
      onmessage?.(message, extra);
    } finally {
      if (received && received.id === undefined) record(transport.sessionId, received);
    }
  };
  transport.send = (message, options) => {
    const id = !('method' in message) && 'id' in message ? String(message.id) : undefined;
    const received = id === undefined ? undefined : unanswered.get(id);
    if (received && id !== undefined) {
      unanswered.delete(id);
      record(transport.sessionId, received, message as Answer);
    }
    return send(message, options);
  };
  transport.onclose = () => {
    for (const received of unanswered.values()) record(transport.sessionId, received, 'closed');
    unanswered.clear();
    onclose?.();
  };
}

function receivedOf(message: JSONRPCMessage & { method: string }): Received {
  const params = (message as { params?: { name?: unknown } }).params;
  const target = message.method in TARGET_ATTRIBUTES && typeof params?.name === 'string' ? params.name : undefined;
  const id = 'id' in message && message.id !== undefined ? String(message.id) : undefined;
  return { method: message.method, target, id, startTime: Date.now(), parent: context.active() };
}
