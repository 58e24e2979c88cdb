// MCP door: the registry's tools over Streamable HTTP (both protocol eras), served statelessly by mcp-handler.
import { createMcpHandler } from 'mcp-handler';
import { GATEWAY_NAME, GATEWAY_VERSION } from '@/lib/about';
import { config } from '@/lib/config';
import { guarded } from '@/lib/http/guards';
import { createGatewayServer, noteCalledTool } from '@/lib/mcp/gateway-server';
import { gatewayModules } from '@/modules';

const { mcpMaxMediaBytes, oversizeMedia, publicOrigin, stateSecret, confirmDestructive } = config();
const gateway = createGatewayServer(gatewayModules, {
  maxMediaBytes: mcpMaxMediaBytes,
  oversizeMedia,
  publicOrigin,
  stateSecret,
  confirmDestructive,
});

const handler = guarded(
  createMcpHandler(gateway.setup, {
    serverInfo: { name: GATEWAY_NAME, version: GATEWAY_VERSION },
    onEvent: noteCalledTool,
    ...gateway.serverOptions,
  }),
  'mcp',
);

export { handler as GET, handler as POST, handler as DELETE };
