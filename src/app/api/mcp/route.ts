// MCP door: the registry's tools over Streamable HTTP (both protocol eras), served statelessly by mcp-handler.
import { createMcpHandler } from 'mcp-handler';
import { GATEWAY_NAME, GATEWAY_VERSION } from '@/lib/about';
import { config } from '@/lib/config';
import { guarded } from '@/lib/http/guards';
import { createGatewayServer, noteCalledTool } from '@/lib/mcp/gateway-server';
import { withListenStreams } from '@/lib/mcp/list-changes';
import { gatewayModules } from '@/modules';

const { mcpMaxMediaBytes, oversizeMedia, publicOrigin, stateSecret, confirmDestructive } = config();
const gateway = createGatewayServer(gatewayModules, {
  maxMediaBytes: mcpMaxMediaBytes,
  oversizeMedia,
  publicOrigin,
  stateSecret,
  confirmDestructive,
});

const serverInfo = { name: GATEWAY_NAME, version: GATEWAY_VERSION };
const mcpHandler = createMcpHandler(gateway.setup, { serverInfo, onEvent: noteCalledTool, ...gateway.serverOptions });
const handler = guarded(withListenStreams(mcpHandler, gateway, serverInfo), 'mcp');

export { handler as GET, handler as POST, handler as DELETE };
