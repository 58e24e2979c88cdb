// The tool contract of a gateway's catalogue, and how a process hears of each gateway created (the `tools` command's).
import 'server-only';
import type { ServedTool } from '../mcp/register-tools.js';
import { contractOf, GATEWAY_REGISTRY_KEY, type JsonSchema, type RecordedGateway, type ToolContract } from '../shared/tool-contract.js';
import { inputJsonSchemaOf, outputJsonSchemaOf } from './tool-search.js';

/** The contract of `tools` (the catalogue's, the surface's own tools aside): each one's schemas as tools/list shows them. */
export function catalogueContract(tools: readonly ServedTool[]): ToolContract {
  return contractOf(
    tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      aliases: tool.aliases?.length ? tool.aliases : undefined,
      annotations: tool.annotations,
      scopes: [...tool.scopes],
      toolsets: [...tool.toolsets],
      inputSchema: inputJsonSchemaOf(tool) as JsonSchema,
      outputSchema: outputJsonSchemaOf(tool) as JsonSchema | undefined,
    })),
  );
}

/**
 * Records `gateway` in the process's registry of gateways (`Symbol.for(GATEWAY_REGISTRY_KEY)` on `globalThis`) when the
 * process set one up to hear of them (the `tools` command's child does, then loads the app's MCP route); else nothing.
 */
export function recordGateway(gateway: RecordedGateway): void {
  const registry = (globalThis as Record<symbol, unknown>)[Symbol.for(GATEWAY_REGISTRY_KEY)];
  if (Array.isArray(registry)) registry.push(gateway);
}
