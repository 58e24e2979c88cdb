// A span for a tool run through another tool (`call_tool`), named for the tool it runs, in the trace of its request.
import 'server-only';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/** The gateway's own tracer (mcp-handler's spans are named `mcp-handler`). */
const TRACER_NAME = 'vovk-mcp-gateway';

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
  return trace.getTracer(TRACER_NAME).startActiveSpan(`tools/call ${tool}`, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
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
