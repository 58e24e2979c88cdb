// MCP door: the registry's tools over Streamable HTTP (both protocol eras), served statelessly by mcp-handler.
import { createMcpHandler } from 'mcp-handler';
import { config } from '@/lib/config';
import { guarded } from '@/lib/http/guards';
import { createGatewayServer, noteCalledTool } from '@/lib/mcp/gateway-server';
import { gatewayModules } from '@/modules';

const { mcpMaxMediaBytes, oversizeMedia, publicOrigin } = config();
const gatewayServer = createGatewayServer(gatewayModules, { maxMediaBytes: mcpMaxMediaBytes, oversizeMedia, publicOrigin });

const handler = guarded(
  createMcpHandler(gatewayServer, { serverInfo: { name: 'vovk-mcp-gateway', version: '0.1.0' }, onEvent: noteCalledTool }),
  'mcp',
);

export { handler as GET, handler as POST, handler as DELETE };
