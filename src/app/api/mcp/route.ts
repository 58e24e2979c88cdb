// MCP door: the gateway's tools over Streamable HTTP (both protocol eras), served statelessly by mcp-handler.
import { createMcpHandler } from 'mcp-handler';
import { guarded, jsonRpcError } from '@/lib/http/guards';
import { noteCalledTool, withRequestScope } from '@/lib/mcp/request-scope';
import { initializeGatewayServer } from '@/lib/mcp/gateway-server';

const handler = guarded(
  withRequestScope(
    createMcpHandler(initializeGatewayServer, {
      serverInfo: { name: 'vovk-mcp-gateway', version: '0.1.0' },
      onEvent: noteCalledTool,
    }),
  ),
  jsonRpcError,
);

export { handler as GET, handler as POST, handler as DELETE };
