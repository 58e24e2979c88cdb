// MCP door: the registry's tools over Streamable HTTP (both protocol eras), served statelessly by mcp-handler.
import { createMcpHandler } from 'mcp-handler';
import { GATEWAY_NAME, GATEWAY_VERSION } from '@/lib/about';
import { config } from '@/lib/config';
import { guarded } from '@/lib/http/guards';
import { createGatewayServer, noteCalledTool } from '@/lib/mcp/gateway-server';
import { gatewayModules } from '@/modules';

const { mcpMaxMediaBytes, oversizeMedia, publicOrigin } = config();
const gatewayServer = createGatewayServer(gatewayModules, { maxMediaBytes: mcpMaxMediaBytes, oversizeMedia, publicOrigin });

const handler = guarded(
  createMcpHandler(gatewayServer, { serverInfo: { name: GATEWAY_NAME, version: GATEWAY_VERSION }, onEvent: noteCalledTool }),
  'mcp',
);

export { handler as GET, handler as POST, handler as DELETE };
