// `@toolAliases(…)`: old names a procedure's tool stays callable by (unlisted, answering as the tool, saying it is deprecated).
import 'server-only';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { recordedInOperation } from '../operation-fields.js';
import type { ServedTool } from '../mcp/register-tools.js';
import { DEPRECATED_META_KEY, type DeprecatedName } from '../shared/deprecated-meta.js';

/** `@operation` field where `@toolAliases` records the old names of a procedure's tool (OpenAPI readers see it too). */
export const TOOL_ALIASES_KEY = 'x-tool-aliases';

/** A tool name as MCP allows it: 1 to 128 of A–Z, a–z, 0–9, `_`, `-` and `.`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Keeps a renamed procedure callable by its old tool names: `@toolAliases('TaskController_getTasks') @get() static
 * listTasks = …`. An alias is not listed in `tools/list`; a call of it (direct, through `call_tool`, in code mode)
 * answers exactly as the tool does, with `_meta['dev.vovk/deprecated'] = { alias, use }` in its result and a warning in
 * the log once per process; `search_tools` finds the tool by it; the tool contract records it, so that
 * `vovk-mcp-gateway tools check` accepts the rename. REST is unchanged.
 */
export function toolAliases(...names: [string, ...string[]]) {
  for (const name of names) {
    if (!TOOL_NAME.test(name)) throw new TypeError(`@toolAliases: ${JSON.stringify(name)} is not a tool name`);
  }
  return recordedInOperation({ [TOOL_ALIASES_KEY]: names });
}

/** The aliases already warned about in this process's log. */
const warned = new Set<string>();

/** `result` with the deprecation note of a call made by `deprecated.alias`. */
function withDeprecation(result: CallToolResult, deprecated: DeprecatedName): CallToolResult {
  return { ...result, _meta: { ...result._meta, [DEPRECATED_META_KEY]: deprecated } };
}

/** The tool served under the old name `alias` of `tool`: the same tool (guards, scopes, tasks, formatter), its results noted. */
function aliasTool(tool: ServedTool, alias: string): ServedTool {
  const deprecated: DeprecatedName = { alias, use: tool.name };
  return {
    ...tool,
    name: alias,
    aliases: undefined,
    aliasOf: tool.name,
    alwaysListed: false,
    execute: async (input) => {
      if (!warned.has(alias)) {
        warned.add(alias);
        console.warn(`[gateway] Tool ${alias} is deprecated: it is an old name of ${tool.name}; call ${tool.name} instead (said once)`);
      }
      return withDeprecation(await tool.execute(input), deprecated);
    },
  };
}

/**
 * `tools` as served with their old names (`aliases`: only those served), and the alias tools (one per old name). An
 * alias that is another tool's name (or one of `taken`, the surface's own tools), or another tool's alias too, is not
 * served, with a warning: a name calls one tool only.
 */
export function withAliasTools(tools: readonly ServedTool[], taken: readonly string[]): { tools: ServedTool[]; aliases: ServedTool[] } {
  const names = new Set([...tools.map((tool) => tool.name), ...taken]);
  const declared = tools.flatMap((tool) => (tool.aliases ?? []).map((alias) => ({ alias, tool })));
  const isClash = ({ alias }: { alias: string }, index: number) =>
    names.has(alias) || declared.findIndex((other) => other.alias === alias) !== index;
  const clashing = new Set(declared.filter(isClash).map(({ alias }) => alias));
  for (const alias of clashing) console.warn(`[gateway] ${alias} is not served as an alias: it is the name of another tool, or an alias of two`);
  const served = (tool: ServedTool) => tool.aliases?.filter((alias) => !clashing.has(alias));
  return {
    tools: tools.map((tool) => (tool.aliases ? { ...tool, aliases: served(tool) } : tool)),
    aliases: declared.filter(({ alias }) => !clashing.has(alias)).map(({ alias, tool }) => aliasTool(tool, alias)),
  };
}
