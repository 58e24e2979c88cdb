// Ready-to-paste settings that point MCP clients (Claude Desktop, Cursor, VS Code, MCP Inspector, mcp-remote, clients
// of the older HTTP+SSE transport) at the gateway, with the part of the catalogue the user chose (toolsets, read-only,
// surface) in the URL's query or headers.
import 'client-only';
import { SELECTION_CHOICES } from '../../shared/catalogue-names.js';
import { shellQuote, shellWord } from '../../shared/shell-words.js';

export interface ClientConfig {
  id: string;
  label: string;
  /** Where the text goes. */
  hint: string;
  text: string;
}

/** How `tools/list` shows the selected tools (`?tools=`); undefined: the gateway's default for the selection's size. */
export type Surface = 'all' | 'search' | 'code';

/** What a client asks to see of the catalogue, and how it says so. */
export interface ConnectSelection {
  /** The toolsets chosen; none: every tool. */
  toolsets: readonly string[];
  /** Only the tools that only read (`readOnlyHint`). */
  readonly: boolean;
  surface?: Surface;
  /** Where the selection travels: the endpoint URL's query (any client), or headers (the URL then stays plain). */
  via: 'query' | 'headers';
}

/** Every tool, the gateway's default surface: the plain endpoint URL and no headers. */
export const NO_SELECTION: ConnectSelection = { toolsets: [], readonly: false, via: 'query' };

/** The name the gateway gets in the clients' server lists. */
const SERVER_KEY = 'vovk-gateway';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The selection's parameters that are set, in the gateway's order: each with its query name, header and value. */
function selectionParameters({ toolsets, readonly, surface }: ConnectSelection) {
  const choices: Array<{ query: string; header: string; value: string | undefined }> = [
    { ...SELECTION_CHOICES.toolsets, value: toolsets.length ? toolsets.join(',') : undefined },
    { ...SELECTION_CHOICES.readonly, value: readonly ? '1' : undefined },
    { ...SELECTION_CHOICES.surface, value: surface },
  ];
  return choices.filter((parameter): parameter is { query: string; header: string; value: string } => parameter.value !== undefined);
}

/** The URL a client connects to: `endpoint` with the selection as its query (`?toolsets=A,B&readonly=1&tools=all`). */
export function selectionURL(endpoint: string, selection: ConnectSelection): string {
  if (selection.via !== 'query') return endpoint;
  // The commas between toolsets stay as they are, readable (names are letters, digits, `-` and `_`).
  const encoded = (value: string) => value.split(',').map(encodeURIComponent).join(',');
  const query = selectionParameters(selection).map(({ query: name, value }) => `${name}=${encoded(value)}`);
  return query.length ? `${endpoint}?${query.join('&')}` : endpoint;
}

/** The headers that carry the selection (`X-MCP-Toolsets: A,B`…) when it goes in headers; none otherwise. */
export function selectionHeaders(selection: ConnectSelection): Record<string, string> {
  if (selection.via !== 'headers') return {};
  return Object.fromEntries(selectionParameters(selection).map(({ header, value }) => [header, value]));
}

/**
 * The HTTP+SSE stream's URL (protocol revision 2024-11-05) beside the MCP endpoint, absolute or a path (as the page is
 * first rendered on the server): `…/api/mcp` → `…/api/sse`.
 */
export function sseEndpoint(endpoint: string): string {
  return endpoint.replace(/\/[^/]*$/, '/sse');
}

export function clientConfigs(endpoint: string, selection: ConnectSelection = NO_SELECTION): ClientConfig[] {
  const url = selectionURL(endpoint, selection);
  const headers = selectionHeaders(selection);
  const headerEntries = Object.entries(headers);
  const withHeaders = headerEntries.length ? { headers } : {};
  // mcp-remote reads `--header Name:value`; without a space it survives clients that split arguments on spaces.
  const remote = ['-y', 'mcp-remote', url, ...headerEntries.flatMap(([name, value]) => ['--header', `${name}:${value}`])];
  const inspectorHeaders = headerEntries.flatMap(([name, value]) => ['--header', shellQuote(`${name}: ${value}`)]);
  const inspector = ['--cli', shellWord(url), '--method', 'tools/list', ...inspectorHeaders];
  return [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      hint: 'claude_desktop_config.json — it speaks stdio, so mcp-remote bridges to HTTP',
      text: json({ mcpServers: { [SERVER_KEY]: { command: 'npx', args: remote } } }),
    },
    {
      id: 'cursor',
      label: 'Cursor',
      hint: '.cursor/mcp.json',
      text: json({ mcpServers: { [SERVER_KEY]: { url, ...withHeaders } } }),
    },
    {
      id: 'vscode',
      label: 'VS Code',
      hint: '.vscode/mcp.json (or the user settings’ "mcp" entry)',
      text: json({ servers: { [SERVER_KEY]: { type: 'http', url, ...withHeaders } } }),
    },
    {
      id: 'inspector',
      label: 'MCP Inspector',
      hint: 'a terminal; leave out --cli and what follows for its web UI (transport "Streamable HTTP")',
      text: ['npx', '-y', '@modelcontextprotocol/inspector', ...inspector].join(' '),
    },
    {
      id: 'mcp-remote',
      label: 'mcp-remote',
      hint: 'the command of any stdio-only MCP client',
      text: ['npx', ...remote].map(shellWord).join(' '),
    },
    {
      id: 'sse',
      label: 'HTTP+SSE clients',
      hint: 'clients and configs that say "type": "sse" (the 2024-11-05 transport); mcp-remote: add --transport sse-only',
      text: json({ mcpServers: { [SERVER_KEY]: { type: 'sse', url: selectionURL(sseEndpoint(endpoint), selection), ...withHeaders } } }),
    },
  ];
}
