// Turns the registry handed in (controllers and standalone tools) into the MCP tools the gateway serves.
import 'server-only';
import type { CallToolResult, ScopeChallengeHandler, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import { deriveTools } from 'vovk';
import { READ_SCOPE, WRITE_SCOPE } from '../shared/scope-names.js';
import { requiredScopes, SCOPES_KEY } from '../auth/scopes.js';
import { type McpFormatter, type StandardTool, withFormattedOutput } from '../tools/index.js';
import { streamOutputSchema, structuredOutputSchema } from './output-schema.js';
import { REST_META_KEY, type RestRoute } from '../shared/rest-meta.js';
import { bodyTypeOf, callProcedure, type ProcedureTarget, type ToolArguments } from './procedure-call.js';
import { type HandlerSchemas, procedureInputSchema } from './procedure-input.js';
import { collectStream, cutNote, isStream, type StreamLimits } from './stream-items.js';
import { CONFIRM_KEY } from './client-input.js';
import { MCP_APP_KEY, type McpAppUse } from './mcp-apps.js';
import { RESOURCE_KEY, type ResourceDeclaration } from './resources/resource-decorator.js';
import { restRequest } from '../shared/rest-request.js';
import { type CallRules, callRulesOf, TASK_SUPPORT_KEY, type TaskSupport } from '../long-work/long-running.js';
import { ALWAYS_LISTED_KEY, TOOLSETS_KEY } from '../catalogue/toolsets.js';
import { RESULT_BUDGET_KEY, type ResultBudgetDeclaration } from '../budget/budget-decorator.js';
import { type ToolBudget, toolBudgetOf } from '../budget/result-budget.js';
import { TOOL_ALIASES_KEY } from '../catalogue/tool-aliases.js';
import { TOOLSETS_META_KEY } from '../shared/toolset-meta.js';

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
  /** Old names it stays callable by, unlisted (`@toolAliases`). */
  aliases?: string[];
  /** Served under an old name: the name of the tool it is (see `aliasToolsOf`). */
  aliasOf?: string;
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
  /** Its results' token budget and paging (`@resultBudget`, paging parameters found in its query schema). @default the gateway's budget, no paging */
  budget?: ToolBudget;
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

type HandlerMetadata = { httpMethod: string; path: string; operationObject?: OperationObject };
type ControllerMetadata = { prefix?: string; _handlers?: Record<string, HandlerMetadata> };
type OperationObject = {
  'x-tool'?: { name?: string; hidden?: boolean };
  [TOOL_ANNOTATIONS_KEY]?: ToolAnnotations;
  [SCOPES_KEY]?: string[];
  [MCP_APP_KEY]?: McpAppUse;
  [RESOURCE_KEY]?: ResourceDeclaration;
  [CONFIRM_KEY]?: boolean;
  [TASK_SUPPORT_KEY]?: TaskSupport;
  [TOOLSETS_KEY]?: string[];
  [ALWAYS_LISTED_KEY]?: boolean;
  [RESULT_BUDGET_KEY]?: ResultBudgetDeclaration;
  [TOOL_ALIASES_KEY]?: string[];
};
/**
 * A handler of the registry as the gateway serves it: its controller and module, its REST route (on its segment), the
 * annotations its `@operation` sets, the scopes it declares with `@scopes`, the UI it declares with `@mcpApp`, …
 */
type ProcedureRoute = RestRoute & {
  moduleName: string;
  handlerName: string;
  controller: object;
  operationObject?: OperationObject;
  annotations?: ToolAnnotations;
  declaredScopes?: string[];
  app?: McpAppUse;
  resource?: ResourceDeclaration;
  confirms?: boolean;
  taskSupport?: TaskSupport;
  toolsets: [string, ...string[]];
  alwaysListed?: boolean;
  aliases?: string[];
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

/** The root of every REST segment's routes (vovk's `rootEntry`). */
const REST_ROOT = 'api';

/** A handler's REST path: `/api/<segment>/<prefix>/<path>` (the root segment has no name). */
function restPathOf(segmentName: string, prefix: string, path: string): string {
  return `/${[REST_ROOT, segmentName, prefix, path].filter(Boolean).join('/')}`;
}

/** The REST segments other than the root one, by name: their controllers (`/api/<name>/…`). */
export type Segments = Record<string, Controllers>;

/** Every handler of the registry (the root segment's controllers, then the other segments'), with its REST route. */
function procedureRoutes(controllers: Controllers, segments: Segments = {}): ProcedureRoute[] {
  const bySegment: [string, Controllers][] = [['', controllers], ...Object.entries(segments)];
  return bySegment.flatMap(([segmentName, segmentControllers]) =>
    Object.entries(segmentControllers).flatMap(([moduleName, controller]) => {
      const { prefix = '', _handlers = {} } = controller as unknown as ControllerMetadata;
      return Object.entries(_handlers).map(([handlerName, { httpMethod, path, operationObject }]): ProcedureRoute => ({
        method: httpMethod,
        path: restPathOf(segmentName, prefix, path),
        moduleName,
        handlerName,
        controller,
        operationObject,
        annotations: operationObject?.[TOOL_ANNOTATIONS_KEY],
        declaredScopes: operationObject?.[SCOPES_KEY],
        app: operationObject?.[MCP_APP_KEY],
        resource: operationObject?.[RESOURCE_KEY],
        confirms: operationObject?.[CONFIRM_KEY],
        taskSupport: operationObject?.[TASK_SUPPORT_KEY],
        toolsets: [...new Set([moduleName, ...(operationObject?.[TOOLSETS_KEY] ?? [])])] as [string, ...string[]],
        alwaysListed: operationObject?.[ALWAYS_LISTED_KEY],
        aliases: operationObject?.[TOOL_ALIASES_KEY],
        ...callRulesOf(controller, handlerName),
      }));
    }),
  );
}

/** The scopes the procedures of `controllers` (and of the other segments) declare with `@scopes`, besides the gateway's three. */
export function declaredScopesOf(controllers: Controllers, segments?: Segments): string[] {
  return [...new Set(procedureRoutes(controllers, segments).flatMap((route) => route.declaredScopes ?? []))];
}

/** A handler of the registry that is not served as a tool, and why (in the start-up log and the explorer). */
export interface LeftOutProcedure {
  tool: string;
  method: string;
  path: string;
  reason: string;
}

/** How derived tools are served: the other REST segments, and how much of a stream one result holds. */
export interface DeriveOptions {
  segments?: Segments;
  streams?: StreamLimits;
}

/** The default bounds of a streamed result (the configuration's MCP_STREAM_MAX_ITEMS / MCP_STREAM_MAX_BYTES). */
const DEFAULT_STREAM_LIMITS: StreamLimits = { maxItems: 1000, maxBytes: 1024 * 1024 };

/** What vovk's deriveTools names and describes a handler's tool (undefined for a hidden one): only its naming is used. */
function toolNaming(route: ProcedureRoute): Pick<GatewayTool, 'name' | 'title' | 'description'> | undefined {
  const handler = { schema: { operationObject: route.operationObject ?? {} } };
  const [tool] = deriveTools({ modules: { [route.moduleName]: { [route.handlerName]: handler } } }).tools;
  return tool && { name: tool.name, title: tool.title, description: tool.description };
}

/**
 * The result of a call of a procedure: what it returned (a value or `Response`) as `format` makes it, or for a stream
 * its items (within `streams`; a line for the model when it was cut); an error as an isError result.
 */
async function procedureResult(target: ProcedureTarget, input: unknown, format: McpFormatter, origin: string, streams: StreamLimits, name: string) {
  const tool = { name };
  try {
    const { result, req } = await callProcedure(target, (input ?? {}) as ToolArguments, origin);
    if (!isStream(result)) return await format(result, tool, req);
    const collected = await collectStream(result, streams);
    const output = await format(collected.items, tool, req);
    const note = cutNote(collected, streams);
    return note ? { ...output, content: [...output.content, { type: 'text' as const, text: note }] } : output;
  } catch (error) {
    return format(error instanceof Error ? error : new Error(String(error)), tool, null);
  }
}

/** One handler's tool, or why it cannot be one faithfully (thrown as an Error). */
function procedureTool(route: ProcedureRoute, format: McpFormatter, origin: () => string, streams: StreamLimits): GatewayTool | undefined {
  const naming = toolNaming(route);
  if (!naming) return undefined;
  const handler = (route.controller as Record<string, HandlerSchemas>)[route.handlerName];
  const contentTypes = handler?.definition?.contentType;
  const takesBody = Boolean(handler?.definition?.body) || !handler?.definition;
  if (takesBody && !bodyTypeOf(contentTypes)) {
    throw new Error(`its body is ${contentTypes!.join(' or ')}, which tool arguments cannot carry: call it over REST`);
  }
  const { annotations, declaredScopes, app, resource, confirms, taskSupport, answersAtOnce, checkFirst, toolsets, alwaysListed, aliases, method, path } =
    route;
  const restRoute = { method, path };
  const iteration = handler?.definition?.iteration;
  // Both schemas read vovk's JSON Schema here, so one no JSON Schema can describe leaves this handler out, not the route.
  const inputSchema = procedureInputSchema(restRoute, handler ?? {});
  const outputSchema = iteration
    ? streamOutputSchema(handler?.schema?.validation?.iteration)
    : structuredOutputSchema(handler?.definition?.output, handler?.schema?.validation?.output);
  const target: ProcedureTarget = { controller: route.controller, handlerName: route.handlerName, route: restRoute, contentTypes };
  return {
    ...naming,
    inputSchema,
    outputSchema,
    annotations: { ...annotationsOfMethod(method), ...annotations },
    scopes: requiredScopes(method, declaredScopes),
    _meta: { [REST_META_KEY]: restRoute, [TOOLSETS_META_KEY]: toolsets },
    toolsets,
    alwaysListed,
    aliases,
    app,
    resource,
    confirms,
    taskSupport,
    answersAtOnce,
    checkFirst,
    restRoute,
    budget: toolBudgetOf(route.operationObject?.[RESULT_BUDGET_KEY], handler?.schema?.validation?.query),
    execute: (input: unknown) => procedureResult(target, input, format, origin(), streams, naming.name),
  };
}

/**
 * One MCP tool per handler of the registry — procedures and plain decorated methods alike, in every segment — named
 * and described as vovk's deriveTools does, called as the REST door calls the handler (see `callProcedure`), formatted
 * by `format`. A handler that cannot be a faithful tool (a body tool arguments cannot carry, a schema with no JSON
 * Schema, a name already taken) is left out with the reason; it never takes the others down.
 */
export function deriveProcedureTools(
  controllers: Controllers,
  format: McpFormatter,
  origin: () => string,
  { segments, streams = DEFAULT_STREAM_LIMITS }: DeriveOptions = {},
): { tools: GatewayTool[]; leftOut: LeftOutProcedure[] } {
  const tools: GatewayTool[] = [];
  const leftOut: LeftOutProcedure[] = [];
  const taken = new Map<string, string>();
  for (const route of procedureRoutes(controllers, segments)) {
    const fallbackName = `${route.moduleName}_${route.handlerName}`;
    try {
      const tool = procedureTool(route, format, origin, streams);
      if (!tool) continue;
      const owner = taken.get(tool.name);
      if (owner) throw new Error(`its tool name is already taken by ${owner}`);
      taken.set(tool.name, `${route.method} ${route.path}`);
      tools.push(tool);
    } catch (error) {
      leftOut.push({ tool: fallbackName, method: route.method, path: route.path, reason: (error as Error).message });
    }
  }
  return { tools, leftOut };
}

/** The tools of `deriveProcedureTools` (what is left out aside). */
export function deriveGatewayTools(controllers: Controllers, format: McpFormatter, origin: () => string, options?: DeriveOptions): GatewayTool[] {
  return deriveProcedureTools(controllers, format, origin, options).tools;
}
