// What clients name of the gateway's catalogue: the search surface's two tools, how many hits a search gives at most,
// and how a connection selects (query parameter and header of each choice); shared by the MCP door and the explorer.

/** The tools of the search surface, callable on every surface. */
export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';
/** Code mode's tool: runs a program whose `tools.*` calls are this server's tools. */
export const EXECUTE = 'execute';

/** The most hits `search_tools` gives. */
export const MAX_HITS = 25;

/** Each choice of a connection: its URL query parameter and the header that says the same (the URL wins). */
export const SELECTION_CHOICES = {
  toolsets: { query: 'toolsets', header: 'X-MCP-Toolsets' },
  readonly: { query: 'readonly', header: 'X-MCP-Readonly' },
  surface: { query: 'tools', header: 'X-MCP-Tools' },
} as const;
