// Sets up the MCP server of one request: the gateway's tools, plus the conformance fixtures with MCP_CONFORMANCE=1.
import type { McpServer } from '@modelcontextprotocol/server';
import { conformanceFixturesEnabled } from '@/lib/config';
import { conformanceTools, registerConformanceFixtures } from './conformance-fixtures';
import { gatewayTools } from './gateway-tools';
import { registerTools } from './register-tools';

const conformance = conformanceFixturesEnabled();
const tools = conformance ? [...gatewayTools, ...conformanceTools] : gatewayTools;

export function initializeGatewayServer(server: McpServer): void {
  registerTools(server, tools);
  if (conformance) registerConformanceFixtures(server);
}
