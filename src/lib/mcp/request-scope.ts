// Per-request scope of the MCP door: keeps bodies within MCP_MAX_BODY_BYTES (413) and notes which tool a call names.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readRequestBody } from '@modelcontextprotocol/server';
import type { McpHandlerOptions } from 'mcp-handler';
import { mcpMaxBodyBytes } from '@/lib/config';
import { jsonRpcError } from '@/lib/http/guards';

/** What is known about the request being served; filled in as mcp-handler parses it. */
interface RequestScope {
  calledTool?: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** The tool named by the tools/call being served, if that is what it is (undefined for anything else). */
export function calledToolName(): string | undefined {
  return scope.getStore()?.calledTool;
}

type McpEvent = Parameters<NonNullable<McpHandlerOptions['onEvent']>>[0];

/**
 * mcp-handler's `onEvent` hook: it reports each request's parsed JSON-RPC message before that request's MCP server is
 * set up, so the called tool's name is known there without parsing the body a second time.
 */
export function noteCalledTool(event: McpEvent): void {
  const current = scope.getStore();
  if (!current || event.type !== 'REQUEST_RECEIVED' || event.method !== 'tools/call') return;
  const name = (event.parameters as { params?: { name?: unknown } } | undefined)?.params?.name;
  if (typeof name === 'string') current.calledTool = name;
}

/**
 * Serves each request in its own scope. A declared Content-Length over the limit is refused unread; a body without one
 * (chunked) is read, never past the limit, before mcp-handler (which would buffer it whole) sees it.
 */
export function withRequestScope(handler: (req: Request) => Promise<Response>): (req: Request) => Promise<Response> {
  const serve = (req: Request) => scope.run({}, () => handler(req));
  return async (req) => {
    if (req.method !== 'POST') return serve(req);
    const limit = mcpMaxBodyBytes();
    const tooLarge = () => jsonRpcError(413, `Payload Too Large: the request body must not exceed ${limit} bytes`);
    const declared = req.headers.get('content-length');
    if (declared !== null) return Number(declared) > limit ? tooLarge() : serve(req);
    const body = await readRequestBody(req, limit);
    return body.tooLarge ? tooLarge() : serve(new Request(req, { body: body.text }));
  };
}
