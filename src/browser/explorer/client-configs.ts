// Ready-to-paste settings that point MCP clients (Claude Desktop, Cursor, MCP Inspector, mcp-remote) at the gateway.
import 'client-only';

export interface ClientConfig {
  id: string;
  label: string;
  /** Where the text goes. */
  hint: string;
  text: string;
}

/** The name the gateway gets in the clients' server lists. */
const SERVER_KEY = 'vovk-gateway';

const json = (value: unknown) => JSON.stringify(value, null, 2);

export function clientConfigs(endpoint: string): ClientConfig[] {
  return [
    {
      id: 'claude-desktop',
      label: 'Claude Desktop',
      hint: 'claude_desktop_config.json — it speaks stdio, so mcp-remote bridges to HTTP',
      text: json({ mcpServers: { [SERVER_KEY]: { command: 'npx', args: ['-y', 'mcp-remote', endpoint] } } }),
    },
    {
      id: 'cursor',
      label: 'Cursor',
      hint: '.cursor/mcp.json',
      text: json({ mcpServers: { [SERVER_KEY]: { url: endpoint } } }),
    },
    {
      id: 'inspector',
      label: 'MCP Inspector',
      hint: 'a terminal; leave out --cli and what follows for its web UI (transport "Streamable HTTP")',
      text: `npx -y @modelcontextprotocol/inspector --cli ${endpoint} --method tools/list`,
    },
    {
      id: 'mcp-remote',
      label: 'mcp-remote',
      hint: 'the command of any stdio-only MCP client',
      text: `npx -y mcp-remote ${endpoint}`,
    },
  ];
}
