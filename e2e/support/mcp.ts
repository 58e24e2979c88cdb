// Real MCP clients of both protocol eras: SDK v1 (2025 era) and @modelcontextprotocol/client v2 pinned to 2026-07-28.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export const eras = ['sdk-v1 (2025 era)', 'client-v2 (2026-07-28)'] as const;
export type Era = (typeof eras)[number];

/** Result `_meta` key the 2026-07-28 era adds to every result; not part of a tool's own output. */
const SERVER_INFO_META_KEY = 'io.modelcontextprotocol/serverInfo';

export type ToolResult = {
  content: Array<Record<string, unknown> & { type: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

export interface GatewayClient {
  listTools(): Promise<
    Array<{ name: string; title?: string; description?: string; inputSchema: Record<string, unknown>; _meta?: Record<string, unknown> }>
  >;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** A tool result without the era's protocol-level `_meta` entry (checked separately), so eras compare equal. */
function toolOutput(result: ToolResult): ToolResult {
  const { _meta, ...rest } = result;
  const { [SERVER_INFO_META_KEY]: _serverInfo, ...own } = _meta ?? {};
  return Object.keys(own).length ? { ...rest, _meta: own } : rest;
}

export async function connect(era: Era, baseURL: string, headers: Record<string, string> = {}): Promise<GatewayClient> {
  const url = new URL('/api/mcp', baseURL);
  const options = { requestInit: { headers } };
  const client =
    era === 'sdk-v1 (2025 era)'
      ? new ClientV1({ name: 'e2e-v1', version: '1.0.0' })
      : new ClientV2({ name: 'e2e-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const transport = era === 'sdk-v1 (2025 era)' ? new TransportV1(url, options) : new TransportV2(url, options);
  await client.connect(transport as never);
  return {
    listTools: async () => (await client.listTools()).tools as never,
    callTool: async (name, args = {}) => toolOutput((await client.callTool({ name, arguments: args })) as ToolResult),
    close: () => client.close(),
  };
}
