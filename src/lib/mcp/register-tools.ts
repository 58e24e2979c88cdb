// Registers gateway tools on an MCP server; each call runs as the request's tool call and never throws past here.
import { type McpServer, requireScopes, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { runInToolCall } from '@/lib/request-context';
import { ToModelOutput } from '@/lib/tools';
import { withCachedJsonSchema } from './cached-json-schema';
import type { GatewayTool } from './gateway-tools';

/** The input schema of a tool that takes no arguments: an empty object, so stray arguments are refused, not ignored. */
const NO_ARGUMENTS = z.strictObject({}).meta({ description: 'This tool takes no arguments' });

/** A registered tool: always an input schema; its schemas converted to JSON Schema once for the life of the process. */
export type ServedTool = GatewayTool & Required<Pick<GatewayTool, 'inputSchema'>>;

/** Prepares tools once, at start-up, so that registering them on each request's server costs no schema work. */
export function toServedTools(tools: GatewayTool[]): ServedTool[] {
  return tools.map((tool) => ({
    ...tool,
    inputSchema: withCachedJsonSchema(tool.inputSchema ?? NO_ARGUMENTS),
    outputSchema: tool.outputSchema && withCachedJsonSchema(tool.outputSchema),
  }));
}

/** The REST URL of a call of `tool` with `input`, when it has one. */
type RestUrlOf = (tool: GatewayTool, input: unknown) => string | undefined;

async function run(tool: GatewayTool, input: unknown, mcp: ServerContext, restUrlOf: RestUrlOf) {
  try {
    // The REST URL is needed only for oversize media: worked out on demand, not on every call.
    const toolCall = {
      mcp,
      get restUrl() {
        return restUrlOf(tool, input);
      },
    };
    return await runInToolCall(toolCall, () => tool.execute(input));
  } catch (error) {
    return ToModelOutput.MCP(error instanceof Error ? error : new Error(String(error)), tool, null);
  }
}

export function registerTools(server: McpServer, tools: ServedTool[], restUrlOf: RestUrlOf): void {
  for (const tool of tools) {
    const { name, title, description, inputSchema, outputSchema, annotations, _meta, scopes } = tool;
    // With auth on, a caller without every scope gets HTTP 403 insufficient_scope naming them (the MCP step-up flow).
    const config = { title, description, inputSchema, outputSchema, annotations, _meta, scopeChallenge: requireScopes(...scopes) };
    server.registerTool(name, config, (args, ctx) => run(tool, args, ctx, restUrlOf));
  }
}
