// Raw HTTP and JSON-RPC to the gateway, for tests that send what no well-behaved client would (any Host header too).
import http from 'node:http';
export const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

export interface RawAnswer {
  status: number;
  /** The JSON-RPC message of the reply (plain JSON or the first SSE `data:` line), if it had one. */
  message?: { result?: Record<string, unknown>; error?: { code: number; message: string } };
  text: string;
}

function parseMessage(text: string): RawAnswer['message'] {
  const json = text.startsWith('event:') || text.startsWith('data:') ? text.match(/^data: (.*)$/m)?.[1] : text;
  try {
    return json ? JSON.parse(json) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A raw request's method, headers and body; `fresh`: on a connection of its own, closed after the answer;
 * `localAddress`: the loopback address it comes from (another address is another caller to the rate limiter).
 */
export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  fresh?: boolean;
  localAddress?: string;
}

/** One HTTP request with exactly the given headers (fetch would drop a Host header); resolves to status and body. */
export function rawRequest(
  url: string,
  { method = 'GET', headers = {}, body, fresh = false, localAddress }: RawRequestOptions = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    // A fresh connection: no agent, so no keep-alive (`Connection: close`), as a client that opens one per request.
    const request = http.request(url, { method, headers, localAddress, ...(fresh && { agent: false }) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The MCP URL of `target`: a server's base URL (its /api/mcp), or an MCP URL as it is, query included. */
export function mcpURL(target: string): URL {
  const url = new URL(target);
  if (url.pathname === '/') url.pathname = '/api/mcp';
  return url;
}

/** The HTTP+SSE stream URL of `target`: a server's base URL (its /api/sse), or a stream URL as it is, query included. */
export function sseURL(target: string): URL {
  const url = new URL(target);
  if (url.pathname === '/') url.pathname = '/api/sse';
  return url;
}

/**
 * POSTs a body (string or JSON value) to /api/mcp of `baseURL` (or to `baseURL` itself when it names a path, e.g. with
 * a query) with the given headers (default: a 2025-era client's), from `localAddress` when given.
 */
export async function postMcp(
  baseURL: string,
  body: unknown,
  headers: Record<string, string> = mcpHeaders,
  { localAddress }: Pick<RawRequestOptions, 'localAddress'> = {},
): Promise<RawAnswer> {
  const { status, text } = await rawRequest(mcpURL(baseURL).href, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    localAddress,
  });
  return { status, message: parseMessage(text), text };
}

/** A JSON-RPC tools/call request. */
export const toolCall = (id: number, name: string, args: unknown = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The headers of a 2026-07-28 request (the revision requires the method and, for tools/call, the name as headers). */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return { ...mcpHeaders, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method, ...(name ? { 'Mcp-Name': name } : {}) };
}

/** A 2026-07-28 tools/call: the per-request envelope in `_meta`, and the answers and state of a retry if given. */
export function modernToolCall(
  id: number,
  name: string,
  args: unknown,
  { capabilities = {}, inputResponses, requestState }: { capabilities?: object; inputResponses?: object; requestState?: string } = {},
) {
  const _meta = modernEnvelope(capabilities);
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta, inputResponses, requestState } };
}

/** The per-request `_meta` envelope of a 2026-07-28 request, declaring `capabilities`. */
export function modernEnvelope(capabilities: object = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'e2e-raw', version: '1.0.0' },
  };
}

/** One server-sent event of an MCP stream: its id, and its data as a JSON-RPC message (none for priming events). */
export interface StreamEvent {
  id?: string;
  message?: { id?: number | string; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };
}

/**
 * Reads the SSE events of `response` as they come: each `until(check)` reads on until an event satisfies `check` (or
 * the stream ends) and returns the events read by that call. The body is left open: abort the request to disconnect.
 */
export function eventsOf(response: Response): { until(check: (event: StreamEvent) => boolean): Promise<StreamEvent[]> } {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  const pending: StreamEvent[] = [];
  return {
    async until(check) {
      const events: StreamEvent[] = [];
      for (;;) {
        while (pending.length) {
          const event = pending.shift()!;
          events.push(event);
          if (check(event)) return events;
        }
        const { value, done } = await reader.read();
        if (done) return events;
        buffered += value;
        const blocks = buffered.split('\n\n');
        buffered = blocks.pop()!;
        for (const block of blocks) {
          const field = (name: string) => block.match(new RegExp(`^${name}: ?(.*)$`, 'm'))?.[1];
          const data = field('data');
          const event: StreamEvent = { id: field('id'), message: data ? JSON.parse(data) : undefined };
          if (event.id !== undefined || event.message !== undefined) pending.push(event); // else a comment
        }
      }
    },
  };
}

/** The SSE events of `response` up to the first that satisfies `check` (see {@link eventsOf}). */
export const readEvents = (response: Response, check: (event: StreamEvent) => boolean) => eventsOf(response).until(check);
