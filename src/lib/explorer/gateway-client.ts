// The explorer's MCP connection: the official client, pinned to 2026-07-28 (POST only), on the gateway's own endpoint.
import { type CallToolResult, Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';
import { authHeaders } from '@/lib/browser-token';

export type { CallToolResult, Tool };

/** Where the gateway serves MCP, relative to its origin. */
export const MCP_PATH = '/api/mcp';

/** Pinned: the 2025-era path would also open a GET stream, which this stateless server answers 405. */
const PROTOCOL_VERSION = '2026-07-28';

export interface GatewayConnection {
  tools: Tool[];
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Connects to `endpoint` and lists its tools; rejects when the endpoint cannot be reached or does not speak MCP. */
export async function connectGateway(endpoint: URL): Promise<GatewayConnection> {
  const client = new Client(
    { name: 'vovk-gateway-explorer', version: '0.1.0' },
    { versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } },
  );
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: authHeaders() } }));
  try {
    const { tools } = await client.listTools();
    return {
      tools,
      callTool: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
