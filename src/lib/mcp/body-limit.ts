// Refuses MCP request bodies over MCP_MAX_BODY_BYTES (413, JSON-RPC error) without reading more than the limit.
import { readRequestBody } from '@modelcontextprotocol/server';
import { mcpMaxBodyBytes } from '@/lib/config';
import { jsonRpcError } from '@/lib/http/guards';

export function withBodyLimit(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method !== 'POST') return handler(req);
    const limit = mcpMaxBodyBytes();
    const body = await readRequestBody(req, limit);
    if (body.tooLarge) return jsonRpcError(413, `Payload Too Large: the request body must not exceed ${limit} bytes`);
    return handler(new Request(req, { body: body.text }));
  };
}
