// The toolsets a tool advertises in tools/list `_meta`; shared by the MCP door and the browser explorer.

/** `_meta` key of a tool's toolsets in tools/list: its module's key (or `standalone`) first, then any it declares. */
export const TOOLSETS_META_KEY = 'dev.vovk/toolsets';

/** The toolsets in a tool's `_meta`, or an empty list when it names none. */
export function toolsetsOf(meta: Record<string, unknown> | undefined): string[] {
  const toolsets = meta?.[TOOLSETS_META_KEY];
  return Array.isArray(toolsets) ? toolsets.filter((name): name is string => typeof name === 'string') : [];
}
