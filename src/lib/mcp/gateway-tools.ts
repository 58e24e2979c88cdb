// Every MCP tool the gateway serves: tools derived from the module registry, plus the standalone tools.
import type { CallToolResult, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { deriveTools } from 'vovk';
import { ToModelOutput } from '@/lib/tools';
import { controllers } from '@/modules';
import { withOptionalEmptySlots } from './optional-slots';
import { standaloneTools } from './standalone-tools';

/** What the MCP route registers for one tool. */
export interface GatewayTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: StandardSchemaWithJSON;
  execute(input: unknown): Promise<CallToolResult>;
}

function deriveGatewayTools(): GatewayTool[] {
  const { tools } = deriveTools({ modules: controllers, toModelOutput: ToModelOutput.MCP });
  const derived = tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: withOptionalEmptySlots(tool.inputSchema as StandardSchemaWithJSON | undefined),
    execute: (input: unknown) => tool.execute((input ?? {}) as never) as Promise<CallToolResult>,
  }));
  return [...derived, ...(standaloneTools as GatewayTool[])];
}

/** Derived once per process: registering them on each request's server then costs no schema work. */
export const gatewayTools: GatewayTool[] = deriveGatewayTools();
