// Builds the MCP server setup of the gateway from the registry handed in; mcp-handler runs it for every request.
import 'server-only';
import type { McpServer, McpServerOptions } from '@modelcontextprotocol/server';
import type { McpHandlerOptions } from 'mcp-handler';
import { Catalogue, type CatalogueView, mayUse } from '../catalogue/catalogue.js';
import { type CodeModeLimits, createCodeMode } from '../code-mode/execute-tool.js';
import { EVERYTHING, SelectionError, selectionOf } from '../catalogue/selection.js';
import { calledToolOf, gateToolCalls, surfaceTools } from '../catalogue/surface-tools.js';
import { withAliasTools } from '../catalogue/tool-aliases.js';
import { catalogueContract } from '../catalogue/catalogue-contract.js';
import type { ToolContract } from '../shared/tool-contract.js';
import { CALL_TOOL, EXECUTE, SEARCH_TOOLS } from '../shared/catalogue-names.js';
import { requestContext } from '../request-context.js';
import { createMcpFormatter, type McpFormatter, type McpFormatterOptions, type StandardTool } from '../tools/index.js';
import {
  type Controllers,
  deriveProcedureTools,
  formattedTool,
  type GatewayTool,
  type LeftOutProcedure,
  restUrlOf,
  type Segments,
} from './gateway-tools.js';
import type { StreamLimits } from './stream-items.js';
import { type McpAppUis, registerAppResources, withAppUis } from './mcp-apps.js';
import { createInputStateCodec } from './input-state.js';
import { LEGACY_TASKS_CAPABILITY, serveTasks, TASKS_EXTENSION_CAPABILITY } from './mcp-tasks.js';
import { listOnly, registerTools, toServedTools } from './register-tools.js';
import { ProcedureResources } from './resources/procedure-resources.js';
import { ResourceCompletions } from './resources/resource-completions.js';
import { ResourceSubscriptions, type SubscriptionLimits } from './resources/resource-subscriptions.js';
import { ResourceUpdates } from './resources/resource-updates.js';
import { serveSessionSubscriptions } from './resources/session-subscriptions.js';
import { callerKeyOf } from '../http/guards.js';
import type { ChangeListener } from '../db/driver.js';
import { scopeSetOf, ToolListings } from './tool-listings.js';
import { HeldAnswers } from '../budget/held-answers.js';
import { ResultBudget } from '../budget/result-budget.js';
import { requestCacheHints } from './cache-hints.js';

/** What the gateway serves over MCP: the registry's modules, and anything else registered on each server. */
export interface GatewayModules {
  /** Vovk controllers by module name (the root REST segment, `/api/…`): one tool per handler, named `<Module>_<handler>`. */
  controllers: Controllers;
  /** The other REST segments' controllers, by segment name (`/api/<name>/…`): tools too, with their real REST routes. @default none */
  segments?: Segments;
  /** Standalone tools (`standardTool`), formatted like derived ones. @default none */
  tools?: StandardTool[];
  /** The UIs procedures name with `@mcpApp`, served as `ui://` resources (MCP Apps). @default none */
  apps?: McpAppUis;
  /** Registers what is not a tool (resources, prompts, capabilities) on each request's server. @default nothing */
  setupServer?: (server: McpServer) => void;
}

/**
 * The limits of the gateway's formatter, the origin REST URLs of tool calls point at (asked per call: the request's
 * public origin), the key of input-required state (undefined: random per process) and whether destructive tools ask
 * for confirmation.
 */
export type GatewayServerOptions = Omit<McpFormatterOptions, 'restUrl'> & {
  publicOrigin: () => string;
  stateSecret?: string;
  confirmDestructive: boolean;
  /** The most selected tools `tools/list` shows flat by default (MCP_LIST_MAX). */
  listMax: number;
  /** How long a 2026-07-28 client may keep a listing or `server/discover` answer (MCP_LIST_TTL_MS). */
  listTtlMs: number;
  /** Code mode's limits (CODE_MODE_*, MCP_MAX_BODY_BYTES). */
  codeMode: CodeModeLimits;
  /** Each caller's share of listen streams and resource subscriptions (MCP_MAX_LISTEN_STREAMS_PER_CALLER, …). */
  subscriptions: SubscriptionLimits;
  /** The data changes resource subscriptions follow: the app's change feed (`createMcpGateway`'s `dataChanges`). */
  dataChanges: (listener: ChangeListener) => () => void;
  /** How much of a streaming procedure one tool result holds (MCP_STREAM_MAX_ITEMS, MCP_STREAM_MAX_BYTES). @default 1000 items, 1 MiB */
  streams?: StreamLimits;
  /** The token budget of one result and how long a whole answer over it is held (MCP_RESULT_BUDGET_TOKENS, MCP_RESULT_HOLD_SECONDS). @default no budget */
  resultBudget?: { tokens: number; holdMs: number };
};

/** The gateway's MCP server: the options every `McpServer` of it is made with, and the setup of each one. */
export interface GatewayServer {
  /**
   * Options for `new McpServer` (mcp-handler passes them on): the verifier of input-required `requestState`, the Tasks
   * extension, the cache hints of each request's answers.
   */
  serverOptions: Pick<McpServerOptions, 'requestState' | 'capabilities' | 'cacheHints'>;
  /** Registers the tools (only the called one for a `tools/call` of mcp-handler), the apps' UIs and the extras. */
  setup: (server: McpServer) => void;
  /**
   * Sets up the server of a 2025-era session, which serves every request of the session (whose caller's scopes may
   * change: a token is refreshed or widened): every tool is registered, so a call of one the caller may not use
   * answers 403 with its scopes, and tools/list shows each request's caller only the tools its scopes allow.
   */
  setupSession: (server: McpServer) => void;
  /**
   * Sets up the server of a 2026-07-28 listen stream, which lives as long as the stream: only what acknowledging a
   * filter needs (the lists that can change, resource subscriptions), no tools or resources.
   */
  setupListen: (server: McpServer) => void;
  /**
   * Serves each request with the view of the catalogue it selects (`?toolsets=`, `?readonly=`, `?tools=` or their
   * `X-MCP-*` headers), put in its context for `setup` (and, for an initialize, its session): a selection that names
   * nothing known is answered HTTP 400 with a JSON-RPC error saying what is accepted.
   */
  selecting: (handler: (req: Request) => Promise<Response>) => (req: Request) => Promise<Response>;
  /** The procedures that are resources too (`@resource()`): read and resolved by URI. */
  resources: ProcedureResources;
  /** Subscriptions to the resources' updates (listen streams, 2025-era sessions), within each caller's share. */
  subscriptions: ResourceSubscriptions;
  /** The handlers of the registry that are not tools, and why (logged once at start). */
  leftOut: LeftOutProcedure[];
  /** The contract of the catalogue: what callers rely on of each tool (`vovk-mcp-gateway tools lock` writes it). */
  contract: () => ToolContract;
}

/** What the gateway's resources offer: reads, subscriptions to their changes, and list changes. */
const RESOURCES_CAPABILITY = { resources: { subscribe: true, listChanged: true } };

type McpEvent = Parameters<NonNullable<McpHandlerOptions['onEvent']>>[0];

/** Whether a stateless request is of the 2025 era: 2026-07-28 clients name their revision in a header on every request. */
const isLegacyEra = (request: Request | undefined) => !request?.headers.get('mcp-protocol-version')?.startsWith('2026');

/**
 * mcp-handler's `onEvent` hook: it reports each request's parsed JSON-RPC message before that request's MCP server is
 * set up, so the called tool's name is known there without parsing the body a second time.
 */
export function noteCalledTool(event: McpEvent): void {
  const context = requestContext();
  if (!context || event.type !== 'REQUEST_RECEIVED') return;
  context.mcpMethod = event.method;
  if (event.method !== 'tools/call') return;
  Object.assign(context, calledToolOf((event.parameters as { params?: { name?: unknown } } | undefined)?.params));
}

/** The answer to a request whose selection means nothing: HTTP 400, a JSON-RPC error naming what is accepted. */
function badSelection(error: SelectionError): Response {
  const body = { jsonrpc: '2.0', id: null, error: { code: -32602, message: `Invalid tool selection: ${error.message}` } };
  return Response.json(body, { status: 400 });
}

/**
 * Every tool of `modules`, formatted by `format`: one per handler of the controllers (every segment), then the
 * standalone ones; and the handlers left out, with why.
 */
function gatewayCatalogue(modules: GatewayModules, format: McpFormatter, origin: () => string, streams?: StreamLimits) {
  const derived = deriveProcedureTools(modules.controllers, format, origin, { segments: modules.segments, streams });
  return { tools: [...derived.tools, ...(modules.tools ?? []).map((tool) => formattedTool(tool, format))], leftOut: derived.leftOut };
}

/** The tools of {@link gatewayCatalogue}. */
export function gatewayTools(modules: GatewayModules, format: McpFormatter, origin: () => string): GatewayTool[] {
  return gatewayCatalogue(modules, format, origin).tools;
}

/** Says once, at start, which handlers are not tools and why. */
function logLeftOut(leftOut: LeftOutProcedure[]): void {
  for (const { tool, method, path, reason } of leftOut) console.warn(`[gateway] ${tool} (${method} ${path}) is not an MCP tool: ${reason}`);
}

/**
 * The per-request server setup for mcp-handler. Tools are derived and prepared once, here; each request then needs
 * only registration. A tools/call registers only the tool it names, so the cost of a call does not grow with the
 * catalogue; a tools/list answers from the listing cache once its caller's kind was listed; anything else
 * (resources/read, tasks/get, …) gets every tool the caller may use and the apps' UIs.
 */
export function createGatewayServer(modules: GatewayModules, options: GatewayServerOptions): GatewayServer {
  const format = createMcpFormatter({ ...options, restUrl: () => requestContext()?.toolCall?.restUrl });
  const derived = gatewayCatalogue(modules, format, options.publicOrigin, options.streams);
  logLeftOut(derived.leftOut);
  const { tools, aliases } = withAliasTools(toServedTools(withAppUis(derived.tools, modules.apps)), [SEARCH_TOOLS, CALL_TOOL, EXECUTE]);
  // Tasks of a call by an old name run and are read back by that name.
  const toolsByName = new Map([...tools, ...aliases].map((tool) => [tool.name, tool]));
  const stateCodec = createInputStateCodec(options.stateSecret);
  const heldAnswers = options.resultBudget && new HeldAnswers(options.resultBudget.holdMs);
  const runOptions = {
    restUrlOf: (tool: GatewayTool, input: unknown) => restUrlOf(tool.restRoute, input, options.publicOrigin()),
    stateCodec,
    confirmDestructive: options.confirmDestructive,
    budget: heldAnswers && new ResultBudget(options.resultBudget!.tokens, heldAnswers),
  };
  const codeMode = createCodeMode(options.codeMode, runOptions);
  const resources = new ProcedureResources(tools, runOptions);
  const completions = new ResourceCompletions(resources.all, toolsByName, runOptions);
  const subscriptions = new ResourceSubscriptions(resources, new ResourceUpdates(options.dataChanges), options.subscriptions);
  const catalogue = new Catalogue(tools, { listMax: options.listMax, surfaceTools: surfaceTools(format, codeMode), aliases });
  const listings = new ToolListings();
  const toolScopes = new Set(tools.flatMap((tool) => tool.scopes));
  const viewOfRequest = () => requestContext()?.catalogueView ?? catalogue.view(EVERYTHING);
  const serveResources = (server: McpServer) => {
    registerAppResources(server, modules.apps);
    resources.register(server);
    heldAnswers?.register(server);
    server.server.registerCapabilities(RESOURCES_CAPABILITY);
  };
  const setup = (server: McpServer) => {
    const context = requestContext();
    const view = viewOfRequest();
    const legacy = isLegacyEra(context?.request);
    if (context?.mcpMethod === 'tools/list') {
      const kind = `${legacy ? '2025' : '2026'} ${scopeSetOf(context.caller, toolScopes)} ${view.key}`;
      listings.serve(server, kind, legacy, () => registerTools(server, view.listed.filter(mayUse), runOptions));
      modules.setupServer?.(server);
      return;
    }
    // A call registers the tool it runs when the view has it (one call_tool names, with call_tool; once when call_tool
    // names itself); anything else (initialize, resources/read, tasks/get…) every listed tool the caller may use.
    const isCall = context?.mcpMethod === 'tools/call';
    const called = isCall ? [...new Set([context.calledTool, context.calledThrough])].flatMap((name) => view.tool(name) ?? []) : view.listed.filter(mayUse);
    // A call of a tool the view does not serve registers the surface's, so that tools/call answers why (refused, unknown).
    registerTools(server, called.length ? called : view.surfaceTools, runOptions);
    // A call that cannot become a task (the tool it runs, directly or through call_tool, has no task support) needs no
    // tasks layer; a direct call of a tool the view serves needs no gate (nothing to refuse, no inner call to unwrap):
    // the SDK's own tools/call answers it.
    const mayBecomeTask = !isCall || [context.calledTool, context.calledThrough].some((name) => toolsByName.get(name ?? '')?.taskSupport);
    if (mayBecomeTask) serveTasks(server, toolsByName, runOptions, { legacy });
    if (!isCall || context.calledThrough !== undefined || !view.tool(context.calledTool)) gateToolCalls(server, catalogue, view, stateCodec);
    if (context?.mcpMethod !== 'tools/call') serveResources(server);
    modules.setupServer?.(server);
    if (context?.mcpMethod !== 'tools/call') completions.serve(server);
  };
  const setupSession = (server: McpServer) => {
    // A session keeps the view its initialize selected.
    const view = viewOfRequest();
    const listed = new Set(view.listed.map((tool) => tool.name));
    registerTools(server, [...view.surfaceTools, ...view.selected.values(), ...view.aliases.values()], runOptions);
    serveTasks(server, toolsByName, runOptions, { legacy: true, session: true });
    server.server.registerCapabilities(LEGACY_TASKS_CAPABILITY);
    listOnly(server, (name) => listed.has(name) && mayUse(view.tool(name)));
    gateToolCalls(server, catalogue, view, stateCodec);
    serveResources(server);
    modules.setupServer?.(server);
    completions.serve(server);
    const request = requestContext()?.request;
    if (request) serveSessionSubscriptions(server, subscriptions, callerKeyOf(request));
  };
  const setupListen = (server: McpServer) => {
    server.server.registerCapabilities({ tools: { listChanged: true }, ...RESOURCES_CAPABILITY });
    modules.setupServer?.(server);
  };
  const selecting = (handler: (req: Request) => Promise<Response>) => (req: Request) => {
    let view: CatalogueView;
    try {
      view = catalogue.view(selectionOf(req));
    } catch (error) {
      if (error instanceof SelectionError) return Promise.resolve(badSelection(error));
      throw error;
    }
    const context = requestContext();
    if (context) context.catalogueView = view;
    return handler(req);
  };
  const serverOptions = {
    requestState: { verify: stateCodec.verify },
    capabilities: TASKS_EXTENSION_CAPABILITY,
    cacheHints: requestCacheHints(options.listTtlMs),
  };
  const contract = () => catalogueContract(tools);
  return { serverOptions, setup, setupSession, setupListen, selecting, resources, subscriptions, leftOut: derived.leftOut, contract };
}
