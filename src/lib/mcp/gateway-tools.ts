// Every MCP tool the gateway serves: tools derived from the module registry, plus the standalone tools.
import type { CallToolResult, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { deriveTools } from 'vovk';
import { selfOrigin } from '@/lib/config';
import { ToModelOutput } from '@/lib/tools';
import { controllers } from '@/modules';
import { withOptionalEmptySlots } from './optional-slots';
import { REST_META_KEY, type RestRoute } from './rest-meta';
import { restRequest } from './rest-request';
import { standaloneTools } from './standalone-tools';

/** What the MCP route registers for one tool. */
export interface GatewayTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: StandardSchemaWithJSON;
  _meta?: Record<string, unknown>;
  /** The REST route of a derived tool. */
  restRoute?: RestRoute;
  execute(input: unknown): Promise<CallToolResult>;
}

/** The absolute REST URL of a GET tool call (where oversize media can be fetched instead); else undefined. */
export function restUrlOf(route: RestRoute | undefined, input: unknown): string | undefined {
  if (route?.method !== 'GET') return undefined;
  return restRequest(route, (input ?? {}) as Record<string, unknown>, selfOrigin()).url;
}

type HandlerMetadata = { httpMethod: string; path: string };
type ControllerMetadata = { prefix?: string; _handlers?: Record<string, HandlerMetadata> };
type ProcedureSchema = { schema?: { operationObject?: { 'x-tool'?: { name?: string } } } };

/** Tool name → REST route, for every procedure of the registry (named as deriveTools names them). */
function restRoutesByToolName(): Map<string, RestRoute> {
  const routes = new Map<string, RestRoute>();
  for (const [moduleName, controller] of Object.entries(controllers)) {
    const { prefix = '', _handlers = {} } = controller as unknown as ControllerMetadata;
    for (const [handlerName, { httpMethod, path }] of Object.entries(_handlers)) {
      const procedure = (controller as unknown as Record<string, ProcedureSchema>)[handlerName];
      const toolName = procedure?.schema?.operationObject?.['x-tool']?.name ?? `${moduleName}_${handlerName}`;
      const segments = ['api', prefix, path].filter(Boolean).join('/');
      routes.set(toolName, { method: httpMethod, path: `/${segments}` });
    }
  }
  return routes;
}

function deriveGatewayTools(): GatewayTool[] {
  const { tools } = deriveTools({ modules: controllers, toModelOutput: ToModelOutput.MCP });
  const routes = restRoutesByToolName();
  const derived = tools.map((tool) => {
    const restRoute = routes.get(tool.name);
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: withOptionalEmptySlots(tool.inputSchema as StandardSchemaWithJSON | undefined),
      _meta: { [REST_META_KEY]: restRoute },
      restRoute,
      execute: (input: unknown) => tool.execute((input ?? {}) as never) as Promise<CallToolResult>,
    };
  });
  return [...derived, ...(standaloneTools as GatewayTool[])];
}

/** Derived once per process: registering them on each request's server then costs no schema work. */
export const gatewayTools: GatewayTool[] = deriveGatewayTools();
