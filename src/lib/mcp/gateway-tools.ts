// Turns the registry handed in (controllers and standalone tools) into the MCP tools the gateway serves.
import 'server-only';
import type { CallToolResult, ScopeChallengeHandler, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import { deriveTools } from 'vovk';
import { READ_SCOPE, WRITE_SCOPE } from '@/shared/scope-names';
import { requiredScopes, SCOPES_KEY } from '@/lib/auth/scopes';
import { type McpFormatter, type StandardTool, withFormattedOutput } from '@/lib/tools';
import { withOptionalEmptySlots } from './optional-slots';
import { structuredOutputSchema } from './output-schema';
import { REST_META_KEY, type RestRoute } from '@/shared/rest-meta';
import { exposeHttpRequestToDecorators } from './decorated-request';
import { CONFIRM_KEY } from './client-input';
import { MCP_APP_KEY, type McpAppUse } from './mcp-apps';
import { RESOURCE_KEY, type ResourceDeclaration } from './resources/resource-decorator';
import { restRequest } from '@/shared/rest-request';
import { type CallRules, callRulesOf, TASK_SUPPORT_KEY, type TaskSupport } from '@/lib/long-work/long-running';
import { ALWAYS_LISTED_KEY, TOOLSETS_KEY } from '@/lib/catalogue/toolsets';
import { TOOLSETS_META_KEY } from '@/shared/toolset-meta';

/** The toolset of the registry's standalone tools (they belong to no module). */
const STANDALONE_TOOLSET = 'standalone';

/**
 * `@operation` field that overrides (key by key) the annotations a derived tool gets from its HTTP method, e.g.
 * `@operation({ summary, 'x-tool-annotations': { destructiveHint: false } })`.
 */
const TOOL_ANNOTATIONS_KEY = 'x-tool-annotations';

/** What the MCP route registers for one tool. */
export interface GatewayTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: StandardSchemaWithJSON;
  outputSchema?: StandardSchemaWithJSON;
  annotations?: ToolAnnotations;
  /** Every OAuth scope a caller needs for it (its method's, then those the procedure declares). */
  scopes: [string, ...string[]];
  /** How a call of it is checked against the caller's scopes (HTTP 403 naming them). @default requireScopes(...scopes) */
  scopeChallenge?: ScopeChallengeHandler;
  /** The toolsets it is in: its module's key (or `standalone`) first, then those the procedure declares with `@toolset`. */
  toolsets: [string, ...string[]];
  /** Listed on every surface, beside the search surface's two tools (`@alwaysListed`). */
  alwaysListed?: boolean;
  _meta?: Record<string, unknown>;
  /** The UI the procedure declares with `@mcpApp` (an MCP App), if any: its name, and who may call the tool. */
  app?: McpAppUse;
  /** What the procedure declares with `@resource`: it is an MCP resource too (GET procedures). */
  resource?: ResourceDeclaration;
  /** The REST route of a derived tool. */
  restRoute?: RestRoute;
  /** The procedure asks for its own confirmation (`@confirm`), naming what it changes. */
  confirms?: boolean;
  /** It may run long (`@longRunning`): callers may (`optional`) or must (`required`) run it as a task. */
  taskSupport?: TaskSupport;
  /** Which calls of it answer at once even for a task-capable client (`answersAtOnce`), and what is checked before a
   * call becomes a task (`checkFirst`), as `@longRunning` declares them. */
  answersAtOnce?: CallRules['answersAtOnce'];
  checkFirst?: CallRules['checkFirst'];
  execute(input: unknown): Promise<CallToolResult>;
}

/** Vovk controllers by module name (the tool-name prefix), as the REST segment takes them. */
export type Controllers = Record<string, object>;

/** The absolute REST URL of a GET tool call on `origin` (where oversize media can be fetched instead); else undefined. */
export function restUrlOf(route: RestRoute | undefined, input: unknown, origin: string): string | undefined {
  if (route?.method !== 'GET') return undefined;
  return restRequest(route, (input ?? {}) as Record<string, unknown>, origin).url;
}

/** A standalone tool (in `toolset`) whose `execute` answers with the MCP result `format` makes of its output or error. */
export function formattedTool<TInput, TOutput>(
  tool: StandardTool<TInput, TOutput>,
  format: McpFormatter,
  toolset = STANDALONE_TOOLSET,
): GatewayTool {
  const formatted = withFormattedOutput(tool, (result) => format(result, tool, null));
  const scopes: [string] = [tool.annotations?.readOnlyHint ? READ_SCOPE : WRITE_SCOPE];
  const toolsets: [string] = [toolset];
  const _meta = { ...(formatted as GatewayTool)._meta, [TOOLSETS_META_KEY]: toolsets };
  return { ...(formatted as GatewayTool), outputSchema: structuredOutputSchema(tool.outputSchema), scopes, toolsets, _meta };
}

type HandlerMetadata = { httpMethod: string; path: string };
type ControllerMetadata = { prefix?: string; _handlers?: Record<string, HandlerMetadata> };
type OperationObject = {
  'x-tool'?: { name?: string };
  [TOOL_ANNOTATIONS_KEY]?: ToolAnnotations;
  [SCOPES_KEY]?: string[];
  [MCP_APP_KEY]?: McpAppUse;
  [RESOURCE_KEY]?: ResourceDeclaration;
  [CONFIRM_KEY]?: boolean;
  [TASK_SUPPORT_KEY]?: TaskSupport;
  [TOOLSETS_KEY]?: string[];
  [ALWAYS_LISTED_KEY]?: boolean;
};
type ProcedureSchema = { schema?: { operationObject?: OperationObject } };
/**
 * A procedure's REST route, the annotations its `@operation` sets, the scopes it declares with `@scopes` and the UI it
 * declares with `@mcpApp`.
 */
type ProcedureRoute = RestRoute & {
  annotations?: ToolAnnotations;
  declaredScopes?: string[];
  app?: McpAppUse;
  resource?: ResourceDeclaration;
  confirms?: boolean;
  taskSupport?: TaskSupport;
  toolsets: [string, ...string[]];
  alwaysListed?: boolean;
  procedure: unknown;
} & CallRules;

/**
 * What the HTTP method promises, as MCP tool annotations: GET and HEAD only read; PUT and DELETE are idempotent
 * (RFC 9110); DELETE destroys. Other methods change state in unknown ways: MCP's defaults (destructive, not idempotent).
 */
export function annotationsOfMethod(method: string): ToolAnnotations {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      return { readOnlyHint: true };
    case 'PUT':
      return { readOnlyHint: false, idempotentHint: true };
    case 'DELETE':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    default:
      return { readOnlyHint: false };
  }
}

/** Tool name → REST route, for every procedure of the registry (named as deriveTools names them). */
function restRoutesByToolName(controllers: Controllers): Map<string, ProcedureRoute> {
  const routes = new Map<string, ProcedureRoute>();
  for (const [moduleName, controller] of Object.entries(controllers)) {
    const { prefix = '', _handlers = {} } = controller as unknown as ControllerMetadata;
    for (const [handlerName, { httpMethod, path }] of Object.entries(_handlers)) {
      const procedure = (controller as unknown as Record<string, ProcedureSchema>)[handlerName];
      const operationObject = procedure?.schema?.operationObject;
      const toolName = operationObject?.['x-tool']?.name ?? `${moduleName}_${handlerName}`;
      const segments = ['api', prefix, path].filter(Boolean).join('/');
      routes.set(toolName, {
        method: httpMethod,
        path: `/${segments}`,
        annotations: operationObject?.[TOOL_ANNOTATIONS_KEY],
        declaredScopes: operationObject?.[SCOPES_KEY],
        app: operationObject?.[MCP_APP_KEY],
        resource: operationObject?.[RESOURCE_KEY],
        confirms: operationObject?.[CONFIRM_KEY],
        taskSupport: operationObject?.[TASK_SUPPORT_KEY],
        toolsets: [...new Set([moduleName, ...(operationObject?.[TOOLSETS_KEY] ?? [])])] as [string, ...string[]],
        alwaysListed: operationObject?.[ALWAYS_LISTED_KEY],
        ...callRulesOf(controller, handlerName),
        procedure,
      });
    }
  }
  return routes;
}

/** The scopes the procedures of `controllers` declare with `@scopes`, besides the three of the gateway. */
export function declaredScopesOf(controllers: Controllers): string[] {
  return [...new Set([...restRoutesByToolName(controllers).values()].flatMap((route) => route.declaredScopes ?? []))];
}

/**
 * One MCP tool per procedure of `controllers` (as vovk's deriveTools makes them), formatted by `format`; the REST URL
 * decorators see on a call is on `origin()` then.
 */
export function deriveGatewayTools(controllers: Controllers, format: McpFormatter, origin: () => string): GatewayTool[] {
  const { tools } = deriveTools({ modules: controllers, toModelOutput: format });
  const routes = restRoutesByToolName(controllers);
  for (const { procedure, method, path } of routes.values()) exposeHttpRequestToDecorators(procedure, { method, path }, origin);
  return tools.map((tool): GatewayTool => {
    const { annotations, declaredScopes, app, resource, confirms, taskSupport, answersAtOnce, checkFirst, toolsets, alwaysListed, procedure: _procedure, ...restRoute } =
      routes.get(tool.name)!;
    return {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: withOptionalEmptySlots(tool.inputSchema as StandardSchemaWithJSON | undefined),
      outputSchema: structuredOutputSchema(tool.outputSchema),
      annotations: { ...annotationsOfMethod(restRoute.method), ...annotations },
      scopes: requiredScopes(restRoute.method, declaredScopes),
      _meta: { [REST_META_KEY]: restRoute, [TOOLSETS_META_KEY]: toolsets },
      toolsets,
      alwaysListed,
      app,
      resource,
      confirms,
      taskSupport,
      answersAtOnce,
      checkFirst,
      restRoute,
      execute: (input: unknown) => tool.execute((input ?? {}) as never) as Promise<CallToolResult>,
    };
  });
}
