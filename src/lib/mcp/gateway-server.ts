// Builds the MCP server setup of the gateway from the registry handed in; mcp-handler runs it for every request.
import 'server-only';
import type { McpServer, McpServerOptions } from '@modelcontextprotocol/server';
import type { McpHandlerOptions } from 'mcp-handler';
import { missingScopes } from '@/lib/auth/scopes';
import { requestContext } from '@/lib/request-context';
import { createMcpFormatter, type McpFormatter, type McpFormatterOptions, type StandardTool } from '@/lib/tools';
import { type Controllers, deriveGatewayTools, formattedTool, type GatewayTool, restUrlOf } from './gateway-tools';
import { type McpAppUis, registerAppResources, withAppUis } from './mcp-apps';
import { createInputStateCodec } from './input-state';
import { LEGACY_TASKS_CAPABILITY, serveTasks, TASKS_EXTENSION_CAPABILITY } from './mcp-tasks';
import { listOnly, registerTools, toServedTools } from './register-tools';
import { scopeSetOf, ToolListings } from './tool-listings';

/** What the gateway serves over MCP: the registry's modules, and anything else registered on each server. */
export interface GatewayModules {
  /** Vovk controllers by module name: one tool per procedure, named `<Module>_<handler>`. */
  controllers: Controllers;
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
};

/** The gateway's MCP server: the options every `McpServer` of it is made with, and the setup of each one. */
export interface GatewayServer {
  /** Options for `new McpServer` (mcp-handler passes them on): the verifier of input-required `requestState`, the Tasks extension. */
  serverOptions: Pick<McpServerOptions, 'requestState' | 'capabilities'>;
  /** Registers the tools (only the called one for a `tools/call` of mcp-handler), the apps' UIs and the extras. */
  setup: (server: McpServer) => void;
  /**
   * Sets up the server of a 2025-era session, which serves every request of the session (whose caller's scopes may
   * change: a token is refreshed or widened): every tool is registered, so a call of one the caller may not use
   * answers 403 with its scopes, and tools/list shows each request's caller only the tools its scopes allow.
   */
  setupSession: (server: McpServer) => void;
}

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
  const name = (event.parameters as { params?: { name?: unknown } } | undefined)?.params?.name;
  if (typeof name === 'string') context.calledTool = name;
}

/** Every tool of `modules`, formatted by `format`: one per procedure of the controllers, then the standalone ones. */
export function gatewayTools(modules: GatewayModules, format: McpFormatter, origin: () => string): GatewayTool[] {
  return [
    ...deriveGatewayTools(modules.controllers, format, origin),
    ...(modules.tools ?? []).map((tool) => formattedTool(tool, format)),
  ];
}

/**
 * The per-request server setup for mcp-handler. Tools are derived and prepared once, here; each request then needs
 * only registration. A tools/call registers only the tool it names, so the cost of a call does not grow with the
 * catalogue; a tools/list answers from the listing cache once its caller's kind was listed; anything else
 * (resources/read, tasks/get, …) gets every tool the caller may use and the apps' UIs.
 */
export function createGatewayServer(modules: GatewayModules, options: GatewayServerOptions): GatewayServer {
  const format = createMcpFormatter({ ...options, restUrl: () => requestContext()?.toolCall?.restUrl });
  const tools = toServedTools(withAppUis(gatewayTools(modules, format, options.publicOrigin), modules.apps));
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const stateCodec = createInputStateCodec(options.stateSecret);
  const runOptions = {
    restUrlOf: (tool: GatewayTool, input: unknown) => restUrlOf(tool.restRoute, input, options.publicOrigin()),
    stateCodec,
    confirmDestructive: options.confirmDestructive,
  };
  // A caller sees only the tools its scopes allow; a call of another one is registered, to answer 403 with its scopes.
  const visible = (tool: GatewayTool | undefined) => !missingScopes(requestContext()?.caller?.scopes, tool?.scopes ?? []).length;
  const listings = new ToolListings();
  const toolScopes = new Set(tools.flatMap((tool) => tool.scopes));
  const setup = (server: McpServer) => {
    const context = requestContext();
    const legacy = isLegacyEra(context?.request);
    if (context?.mcpMethod === 'tools/list') {
      listings.serve(server, `${legacy ? '2025' : '2026'} ${scopeSetOf(context.caller, toolScopes)}`, () => registerTools(server, tools.filter(visible), runOptions));
      modules.setupServer?.(server);
      return;
    }
    const called = toolsByName.get(context?.calledTool ?? '');
    registerTools(server, called ? [called] : tools.filter(visible), runOptions);
    serveTasks(server, toolsByName, runOptions, { legacy });
    if (!called) registerAppResources(server, modules.apps);
    modules.setupServer?.(server);
  };
  const setupSession = (server: McpServer) => {
    registerTools(server, tools, runOptions);
    serveTasks(server, toolsByName, runOptions, { legacy: true, session: true });
    server.server.registerCapabilities(LEGACY_TASKS_CAPABILITY);
    listOnly(server, (name) => visible(toolsByName.get(name)));
    registerAppResources(server, modules.apps);
    modules.setupServer?.(server);
  };
  const serverOptions = { requestState: { verify: stateCodec.verify }, capabilities: TASKS_EXTENSION_CAPABILITY };
  return { serverOptions, setup, setupSession };
}
