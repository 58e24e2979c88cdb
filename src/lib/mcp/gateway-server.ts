// Sets up the MCP server of one request: the gateway's tools, plus test-only fixtures when their switch is on.
import type { McpServer } from '@modelcontextprotocol/server';
import { benchmarkExtraTools, conformanceFixturesEnabled } from '@/lib/config';
import { generatedBenchTools } from './bench-tools';
import { conformanceTools, registerConformanceFixtures } from './conformance-fixtures';
import { gatewayTools } from './gateway-tools';
import { registerTools, toServedTools } from './register-tools';
import { calledToolName } from './request-scope';

const conformance = conformanceFixturesEnabled();
const tools = toServedTools([
  ...gatewayTools,
  ...(conformance ? conformanceTools : []),
  ...generatedBenchTools(benchmarkExtraTools()),
]);
const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));

/**
 * mcp-handler runs this for every request, on a fresh server. A tools/call needs only the tool it names, so only
 * that one is registered: the cost of a call does not grow with the catalogue. Anything else gets every tool.
 */
export function initializeGatewayServer(server: McpServer): void {
  const called = toolsByName.get(calledToolName() ?? '');
  registerTools(server, called ? [called] : tools);
  if (conformance) registerConformanceFixtures(server);
}
