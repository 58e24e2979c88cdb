// The surfaces' own tools (`search_tools`, `call_tool`, code mode's `execute`) and the gate of every tools/call: a call of a tool outside
// the connection's selection is refused naming its toolset; `call_tool` becomes the direct call of the tool it names.
import 'server-only';
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  requireScopes,
  type ScopeChallengeHandler,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CodeMode } from '../code-mode/execute-tool.js';
import { type McpFormatter, standardTool } from '../tools/index.js';
import { formattedTool } from '../mcp/gateway-tools.js';
import type { InputState } from '../mcp/input-state.js';
import { sdkHandlerForWrapper, toServedTools } from '../mcp/register-tools.js';
import { READ_SCOPE } from '../shared/scope-names.js';
import { tracedToolRun } from './traced-run.js';
import { CALL_TOOL, MAX_HITS, SEARCH_TOOLS } from '../shared/catalogue-names.js';
import { type Catalogue, type CatalogueView, DEFAULT_HITS, type SurfaceTools } from './catalogue.js';

/** The toolset the surface's own tools say they are in (they are in every selection). */
const SURFACE_TOOLSET = 'catalogue';

const SearchInput = z.object({
  query: z.string().trim().min(1).max(500).meta({ description: 'What you want to do, in words, e.g. "list overdue invoices of a customer"' }),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_HITS)
    .optional()
    .meta({ description: `How many tools to return, best first (default ${DEFAULT_HITS}, at most ${MAX_HITS})` }),
});

const SearchHitSchema = z.object({
  name: z.string().meta({ description: 'The tool’s name: call it with call_tool (or directly)' }),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()).meta({ description: 'The JSON Schema of its arguments' }),
  annotations: z.record(z.string(), z.unknown()).optional().meta({ description: 'Its MCP annotations (readOnlyHint, destructiveHint…)' }),
  toolset: z.string().meta({ description: 'The toolset it comes from (its module)' }),
  toolsets: z.array(z.string()).meta({ description: 'Every toolset it is in' }),
  score: z.number().meta({ description: 'How well it matches (BM25; higher is better)' }),
  signature: z.string().optional().meta({ description: 'Code surface: how a program calls it, tools.<signature>' }),
});

const CallInput = z.object({
  name: z.string().min(1).meta({ description: 'The name of the tool to run, as search_tools gives it' }),
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'Its arguments, as its inputSchema describes them (none: {})' }),
});

/** The arguments of a `call_tool` call when they name a tool; undefined otherwise (the call then answers why). */
function innerCallOf(params: { name?: unknown; arguments?: unknown } | undefined): { name: string; arguments?: unknown } | undefined {
  if (params?.name !== CALL_TOOL) return undefined;
  const parsed = CallInput.safeParse(params.arguments ?? {});
  return parsed.success ? parsed.data : undefined;
}

/**
 * The tool a `tools/call` runs (`calledTool`: the one `call_tool` names, or the one it names itself) and the tool it
 * goes through (`calledThrough`), as the request's context notes them.
 */
export function calledToolOf(params: { name?: unknown; arguments?: unknown } | undefined): { calledTool?: string; calledThrough?: string } {
  const inner = innerCallOf(params);
  if (inner) return { calledTool: inner.name, calledThrough: CALL_TOOL };
  return typeof params?.name === 'string' ? { calledTool: params.name } : {};
}

/** `search_tools`, `call_tool` and code mode's `execute` for one view, formatted like every tool (`format`). */
export function surfaceTools(format: McpFormatter, codeMode: CodeMode): SurfaceTools {
  return (catalogue, view) => {
    const search = standardTool({
      name: SEARCH_TOOLS,
      title: 'Search tools',
      description:
        `Finds this server's tools for what you want to do, described in words: returns the best matches, each with its ` +
        `name, description, inputSchema and annotations. Then run one with ${CALL_TOOL} { name, arguments }. ` +
        `Search again with other words when none fits.`,
      annotations: { readOnlyHint: true, openWorldHint: false },
      inputSchema: SearchInput,
      outputSchema: z.object({ tools: z.array(SearchHitSchema) }),
      execute: ({ query, limit }) => ({ tools: catalogue.search(view, query, limit) }),
    });
    const call = standardTool({
      name: CALL_TOOL,
      title: 'Call a tool',
      description:
        `Runs one of this server's tools by name with its arguments (find it with ${SEARCH_TOOLS}) and answers exactly ` +
        `what that tool answers.`,
      annotations: { readOnlyHint: false, openWorldHint: false },
      inputSchema: CallInput,
      // Reached only when the call names no tool it can run (the gate below runs the others directly).
      execute: ({ name }) => {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${CALL_TOOL} runs another tool of the catalogue, not ${name}`);
      },
    });
    // A call through call_tool needs the scopes of the tool it names (HTTP 403 naming them, as for a direct call).
    const scopeChallenge: ScopeChallengeHandler = (context) => {
      const inner = innerCallOf(context.request.params as never);
      const tool = inner && (view.selected.get(inner.name) ?? view.aliases.get(inner.name));
      return requireScopes(...(tool?.scopes ?? [READ_SCOPE]))(context);
    };
    return toServedTools([
      formattedTool(search, format, SURFACE_TOOLSET),
      { ...formattedTool(call, format, SURFACE_TOOLSET), scopes: [READ_SCOPE], scopeChallenge },
      // Each call of its program checks that call's scopes (and asks its own confirmation).
      // Code mode keeps its own limits (CODE_MODE_MAX_RESULT_BYTES): no result budget on top.
      {
        ...formattedTool(codeMode.executeTool(catalogue, view), format, SURFACE_TOOLSET),
        scopes: [READ_SCOPE],
        confirms: true,
        budget: { tokens: Number.POSITIVE_INFINITY },
      },
    ]);
  };
}

type CallToolRequest = { params: { name: string; arguments?: unknown } & Record<string, unknown> };

/**
 * Gates every `tools/call` of `server` by `view`: `call_tool { name, arguments }` is served as the direct call of
 * `name` (the same request otherwise: its `_meta`, task, input responses and state), so it answers what that call
 * answers; a call of a tool of the catalogue outside the view is refused (-32602) naming the toolset that has it.
 * Call it after every other wrapper of tools/call (it must see the request first).
 */
export function gateToolCalls(server: McpServer, catalogue: Catalogue, view: CatalogueView, stateCodec: RequestStateCodec<InputState>): void {
  const next = sdkHandlerForWrapper<CallToolRequest>(server, 'tools/call', stateCodec);
  if (!next) return;
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const inner = innerCallOf(request.params);
    // Arguments left out are none ({}), as for a direct call: never call_tool's own ({ name }).
    const direct =
      inner && inner.name !== CALL_TOOL ? { ...request, params: { ...request.params, name: inner.name, arguments: inner.arguments ?? {} } } : request;
    const refusal = catalogue.refusal(direct.params.name, view);
    if (refusal) throw new ProtocolError(ProtocolErrorCode.InvalidParams, refusal);
    if (direct === request) return next(request, ctx) as never;
    const failed = (result: unknown) => (result as { isError?: boolean } | undefined)?.isError === true;
    return tracedToolRun(direct.params.name, CALL_TOOL, () => next(direct, ctx), failed) as never;
  });
}
