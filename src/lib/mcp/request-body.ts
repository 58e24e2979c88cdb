// Reads an MCP request body within MCP_MAX_BODY_BYTES (413 beyond it) and notes which tool a tools/call names.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readRequestBody } from '@modelcontextprotocol/server';
import { mcpMaxBodyBytes } from '@/lib/config';
import { jsonRpcError } from '@/lib/http/guards';

const calledTool = new AsyncLocalStorage<string | undefined>();

/** The tool named by the tools/call being served (a single request, not a batch), if that is what it is. */
export function calledToolName(): string | undefined {
  return calledTool.getStore();
}

function toolNameOf(req: Request, body: string): string | undefined {
  // 2026-07-28 clients name the method and tool in headers; 2025-era ones only in the body.
  if (req.headers.get('mcp-method') === 'tools/call') return req.headers.get('mcp-name') ?? undefined;
  try {
    const message = JSON.parse(body);
    return message?.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined;
  } catch {
    return undefined; // the SDK answers malformed JSON itself
  }
}

export function withRequestBody(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method !== 'POST') return handler(req);
    const limit = mcpMaxBodyBytes();
    const body = await readRequestBody(req, limit);
    if (body.tooLarge) return jsonRpcError(413, `Payload Too Large: the request body must not exceed ${limit} bytes`);
    return calledTool.run(toolNameOf(req, body.text), () => handler(new Request(req, { body: body.text })));
  };
}
