// Registers gateway tools on an MCP server; each call runs as the request's tool call and never throws past here.
import 'server-only';
import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  type ClientCapabilities,
  inputRequired,
  type ListToolsResult,
  type McpServer,
  ProtocolError,
  type RequestStateCodec,
  requireScopes,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { requestContext, runInToolCall, runInWork, type ToolCall } from '../request-context.js';
import { ToModelOutput } from '../tools/index.js';
import { type Work, WorkCancelled } from '../long-work/current-work.js';
import { throttledProgress } from '../long-work/progress-throttle.js';
import { withCachedJsonSchema } from './cached-json-schema.js';
import { confirmAction } from './client-input.js';
import type { GatewayTool } from './gateway-tools.js';
import { type InputState, inputDigest, stateOfCall } from './input-state.js';
import type { ResultBudget } from '../budget/result-budget.js';

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

/** How tool calls run: where their REST URL points, how input-required state is signed, whether to confirm. */
export interface ToolRunOptions {
  /** The REST URL of a call of `tool` with `input`, when it has one. */
  restUrlOf: (tool: GatewayTool, input: unknown) => string | undefined;
  stateCodec: RequestStateCodec<InputState>;
  confirmDestructive: boolean;
  /** What a result over its tool's token budget becomes (direct calls, call_tool, tasks, resources/read). @default no budget */
  budget?: ResultBudget;
}

/** The generic question of a destructive tool whose procedure does not ask its own (`@confirm`). */
function genericQuestion(tool: GatewayTool, input: unknown): string {
  return `Run “${tool.title ?? tool.name}” with ${JSON.stringify(input ?? {})}? It cannot be undone.`;
}

/** What a tool call starts with: what its client can be asked, its answers so far, what an earlier round carried. */
export interface CallStart {
  clientCapabilities?: ClientCapabilities;
  answers: Record<string, unknown>;
  carry?: unknown;
}

/** How a tool call goes: its MCP context, what its client can be asked, its answers so far; the REST URL on demand. */
export function newToolCall(tool: GatewayTool, input: unknown, mcp: ServerContext, call: CallStart, options: ToolRunOptions): ToolCall {
  return {
    mcp,
    // The REST URL is needed only for oversize media: worked out on demand, not on every call.
    get restUrl() {
      return options.restUrlOf(tool, input);
    },
    ...call,
    confirmDestructive: options.confirmDestructive,
  };
}

/**
 * Runs a tool as `toolCall` (the gateway's confirmation of a destructive tool first): its result, or its error as an
 * isError result. Only a `ProtocolError` (a failure of the call itself) is thrown.
 */
export async function executeTool(tool: GatewayTool, input: unknown, toolCall: ToolCall): Promise<CallToolResult> {
  try {
    return await runInToolCall(toolCall, async () => {
      if (tool.annotations?.destructiveHint && !tool.confirms) confirmAction(genericQuestion(tool, input));
      return tool.execute(input);
    });
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    return ToModelOutput.MCP(error instanceof Error ? error : new Error(String(error)), tool, null);
  }
}

/** What the client of this call declared it can do: the request's envelope (2026-07-28) or its session's initialize. */
export function clientCapabilitiesOf(ctx: ServerContext, server: McpServer): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? server.server.getClientCapabilities();
}

/**
 * The long work of a call within its request: cancelled when the client cancels it (`notifications/cancelled`) or
 * drops the HTTP request; progress goes out as `notifications/progress` when the call carries a `progressToken`.
 */
function workOfCall(mcp: ServerContext) {
  const progressToken = mcp.mcpReq._meta?.progressToken;
  const signals = [mcp.mcpReq.signal, requestContext()?.request?.signal].filter((signal) => signal !== undefined);
  const signal = AbortSignal.any(signals);
  const progress = throttledProgress(({ done, total, message }) => {
    if (progressToken === undefined) return;
    const params = { progressToken, progress: done, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) };
    mcp.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => {});
  });
  const work: Work = {
    signal,
    progress: (update) => progress.report(update),
    commit: async () => {
      if (signal.aborted) throw new WorkCancelled(signal.reason);
    },
  };
  return { work, flush: () => progress.flush() };
}

/**
 * Runs one call of `tool` with its validated `input` as a tool call of the request (its long work: progress and
 * cancellation through `mcp`; the gateway's confirmation): its result and the call (input it still needs, answers).
 */
export async function runToolCall(
  tool: GatewayTool,
  input: unknown,
  mcp: ServerContext,
  call: CallStart,
  options: ToolRunOptions,
): Promise<{ result: CallToolResult; toolCall: ToolCall }> {
  const toolCall = newToolCall(tool, input, mcp, call, options);
  const { work, flush } = workOfCall(mcp);
  const result: CallToolResult = await runInWork(work, () => executeTool(tool, input, toolCall));
  flush();
  const context = requestContext();
  if (context && result.content?.some((item) => item.type === 'image' || item.type === 'audio')) context.repliesWithMedia = true;
  return { result, toolCall };
}

/** A call's result as it fits its tool's budget (code mode keeps its own limits: it never comes here). */
export async function fittedResult(result: CallToolResult, tool: GatewayTool, input: unknown, toolCall: ToolCall, options: ToolRunOptions): Promise<CallToolResult> {
  return options.budget ? (await options.budget.fit(result, tool, input, toolCall.outcome?.mimeType)).result : result;
}

async function run(tool: GatewayTool, input: unknown, mcp: ServerContext, server: McpServer, options: ToolRunOptions) {
  let call: CallStart;
  try {
    const state = stateOfCall(mcp, tool.name, input);
    const answers = { ...state?.answers, ...mcp.mcpReq.inputResponses };
    call = { clientCapabilities: clientCapabilitiesOf(mcp, server), answers, ...(state?.carry !== undefined && { carry: state.carry }) };
  } catch (error) {
    return ToModelOutput.MCP(error instanceof Error ? error : new Error(String(error)), tool, null);
  }
  const { result, toolCall } = await runToolCall(tool, input, mcp, call, options);
  if (!toolCall.pendingInput) return fittedResult(result, tool, input, toolCall, options);
  const state: InputState = {
    tool: tool.name,
    input: inputDigest(input),
    answers: toolCall.answers,
    ...(toolCall.carry !== undefined && { carry: toolCall.carry }),
  };
  return inputRequired({ inputRequests: toolCall.pendingInput, requestState: await options.stateCodec.mint(state, mcp) });
}

export function registerTools(server: McpServer, tools: readonly ServedTool[], options: ToolRunOptions): void {
  for (const tool of tools) {
    const { name, title, description, inputSchema, outputSchema, annotations, _meta, scopes, taskSupport } = tool;
    // With auth on, a caller without every scope gets HTTP 403 insufficient_scope naming them (the MCP step-up flow).
    const config = {
      title,
      description,
      inputSchema,
      outputSchema,
      annotations,
      _meta,
      scopeChallenge: tool.scopeChallenge ?? requireScopes(...scopes),
    };
    const registered = server.registerTool(name, config, (args, ctx) => run(tool, args, ctx, server, options));
    // What clients read in tools/list to know they may (or must) call it as a task (registerTool takes no `execution`).
    if (taskSupport) Object.assign(registered, { execution: { taskSupport } });
  }
}

/** The SDK's tools/list handler, as `sdkRequestHandler` reads it. */
export type ListTools = (request: unknown, ctx: unknown) => Promise<ListToolsResult>;

/**
 * The handler the SDK registered on `server` for `method`, read through the protocol's `_getRequestHandler`
 * (protected in the SDK's types, meant for such re-dispatch), so that a wrapper can call it.
 */
export function sdkRequestHandler<Handler>(server: McpServer, method: string): Handler | undefined {
  const protocol = server.server as unknown as { _getRequestHandler?(method: string): Handler | undefined } | undefined;
  return protocol?._getRequestHandler?.(method);
}

/**
 * The SDK's registered handler of `method` on `server` (see `sdkRequestHandler`), as a wrapper registered over it calls
 * it: the SDK verified (and decoded) a retried call's requestState before the wrapper runs, and the handler verifies it
 * again, so it gets the state signed anew (the same state, bound to the same call) — the decoded one would be refused.
 */
export function sdkHandlerForWrapper<Request>(
  server: McpServer,
  method: string,
  stateCodec: RequestStateCodec<InputState>,
): ((request: Request, ctx: ServerContext) => Promise<unknown>) | undefined {
  const handler = sdkRequestHandler<(request: Request, ctx: ServerContext) => Promise<unknown>>(server, method);
  if (!handler) return undefined;
  return async (request, ctx) => {
    const state = ctx.mcpReq.requestState<InputState>();
    if (state === undefined) return handler(request, ctx);
    const signed = await stateCodec.mint(state, ctx);
    return handler(request, { ...ctx, mcpReq: { ...ctx.mcpReq, requestState: <T>() => signed as T } });
  };
}

/**
 * Makes tools/list of `server` show only the registered tools `listed` accepts when the request comes in (its caller
 * is known then), while every registered tool stays callable. The SDK's own listing is reused and filtered.
 */
export function listOnly(server: McpServer, listed: (name: string) => boolean): void {
  const listAll = sdkRequestHandler<ListTools>(server, 'tools/list');
  if (!listAll) return;
  server.server.setRequestHandler('tools/list', async (request, ctx) => {
    const result = await listAll(request, ctx);
    return { ...result, tools: result.tools.filter((tool) => listed(tool.name)) };
  });
}
