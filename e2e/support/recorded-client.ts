// An official MCP client of either era (SDK v1: a 2025-11-25 session; client v2 pinned to 2026-07-28) whose every
// JSON-RPC result is also kept as it came over the wire, by the method of its request: what the client library does
// not show (a field it drops) can still be checked.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eras, type Era } from './mcp';

export { eras, type Era };

/** What the tests ask of a client, the same in both eras. */
export interface RecordedClient {
  listTools(): Promise<unknown>;
  listResources(): Promise<unknown>;
  listResourceTemplates(): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  complete(uri: string, argument: { name: string; value: string }, context?: Record<string, string>): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  /** The capabilities the server declared (initialize, or server/discover on 2026-07-28). */
  capabilities(): Record<string, unknown> | undefined;
  /** The last result received for `method` (of `uri`, for a read), as sent; a client may answer from its own cache. */
  lastResult(method: string, uri?: string): Record<string, unknown> | undefined;
  close(): Promise<void>;
}

/** The JSON-RPC messages of a reply: its JSON, or the `data:` lines of its event stream. */
function messagesOf(text: string): Array<{ result?: Record<string, unknown> }> {
  const lines = text.startsWith('{') ? [text] : [...text.matchAll(/^data: (.*)$/gm)].map((match) => match[1]);
  return lines.flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

/** A fetch that keeps, in `results`, the result of each request by its method (and by its method and URI). */
function recordingFetch(results: Map<string, Record<string, unknown>>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: { uri?: string } }) : undefined;
    const method = sent?.method;
    const type = response.headers.get('content-type') ?? '';
    const readable = type.includes('text/event-stream') || type.includes('json');
    if (!method || !response.ok || !readable) return response;
    const text = await response.clone().text();
    for (const { result } of messagesOf(text)) {
      if (!result) continue;
      results.set(method, result);
      if (sent?.params?.uri) results.set(`${method} ${sent.params.uri}`, result);
    }
    return response;
  };
}

/** Connects a client of `era` to the MCP URL `url`, sending `headers` with every request. */
export async function recordedClient(era: Era, url: string, headers: Record<string, string> = {}): Promise<RecordedClient> {
  const results = new Map<string, Record<string, unknown>>();
  const options = { requestInit: { headers }, fetch: recordingFetch(results) };
  const legacy = era === eras[0];
  const client = legacy
    ? new ClientV1({ name: 'e2e-recorded-v1', version: '1.0.0' })
    : new ClientV2({ name: 'e2e-recorded-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = legacy ? new TransportV1(new URL(url), options) : new TransportV2(new URL(url), options);
  await client.connect(transport as never);
  return {
    listTools: () => client.listTools(),
    listResources: () => client.listResources(),
    listResourceTemplates: () => client.listResourceTemplates(),
    readResource: (uri) => client.readResource({ uri }),
    complete: (uri, argument, context) =>
      client.complete({ ref: { type: 'ref/resource', uri }, argument, ...(context && { context: { arguments: context } }) }) as never,
    capabilities: () => client.getServerCapabilities() as Record<string, unknown> | undefined,
    lastResult: (method, uri) => results.get(uri ? `${method} ${uri}` : method),
    close: async () => {
      if (transport instanceof TransportV1 && transport.sessionId) await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
