// Registers gateway tools on an MCP server; a tool that throws still answers with a formatted (masked) isError.
import type { McpServer } from '@modelcontextprotocol/server';
import { ToModelOutput } from '@/lib/tools';
import type { GatewayTool } from './gateway-tools';

async function run(tool: GatewayTool, input: unknown) {
  try {
    return await tool.execute(input);
  } catch (error) {
    return ToModelOutput.MCP(error instanceof Error ? error : new Error(String(error)), tool, null);
  }
}

export function registerTools(server: McpServer, tools: GatewayTool[]): void {
  for (const tool of tools) {
    const { name, title, description, inputSchema, outputSchema, annotations, _meta } = tool;
    const config = { title, description, outputSchema, annotations, _meta };
    if (inputSchema) server.registerTool(name, { ...config, inputSchema }, (args) => run(tool, args));
    else server.registerTool(name, config, () => run(tool, {}));
  }
}
