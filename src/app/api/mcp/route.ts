// MCP door: the gateway's tools over Streamable HTTP (both protocol eras), served statelessly by mcp-handler.
import { createMcpHandler } from 'mcp-handler';
import { gatewayTools } from '@/lib/mcp/gateway-tools';
import { registerTools } from '@/lib/mcp/register-tools';

const handler = createMcpHandler((server) => registerTools(server, gatewayTools), {
  serverInfo: { name: 'vovk-mcp-gateway', version: '0.1.0' },
});

export { handler as GET, handler as POST, handler as DELETE };
