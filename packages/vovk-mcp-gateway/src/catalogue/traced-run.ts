// Spans of the gateway's own in a request's trace: a tool run through another tool (`call_tool`, code mode's `execute`),
// named for the tool it runs, and a code-mode program, under which its calls' spans are.
import 'server-only';
import { type Attributes, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/** The gateway's own tracer (mcp-handler's spans are named `mcp-handler`). */
const TRACER_NAME = 'vovk-mcp-gateway';

/** Runs `run` in an active span `name` with `attributes`; `failed` says whether its result is an error. */
function tracedRun<T>(name: string, attributes: Attributes, run: () => Promise<T>, failed: (result: T) => boolean): Promise<T> {
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      const result = await run();
      if (failed(result)) span.setStatus({ code: SpanStatusCode.ERROR });
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs `run` — the call of tool `tool` made through the tool `through` — in a span named as mcp-handler names a
 * direct call's (`tools/call <tool>`), with its attributes and `dev.vovk.called_through`; `failed` says whether its
 * result is an error. Without a tracer provider the span is a no-op.
 */
export function tracedToolRun<T>(tool: string, through: string, run: () => Promise<T>, failed: (result: T) => boolean): Promise<T> {
  const attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    'dev.vovk.called_through': through,
  };
  return tracedRun(`tools/call ${tool}`, attributes, run, failed);
}

/**
 * Runs `run` — the program of a call of `tool` (code mode's `execute`) — in a span `<tool> program`, the parent of its
 * calls' spans (mcp-handler records its own span of the call only once it is answered, so it cannot be theirs).
 */
export function tracedProgram<T>(tool: string, run: () => Promise<T>, failed: (result: T) => boolean): Promise<T> {
  return tracedRun(`${tool} program`, { 'gen_ai.tool.name': tool }, run, failed);
}
