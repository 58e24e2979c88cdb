// Unit tests of the explorer's view of the catalogue: tools grouped by toolset, and the connect panel's settings for a
// chosen selection (toolsets, read-only, surface) in the URL's query or in headers.
import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import { type ConnectSelection, clientConfigs, NO_SELECTION, selectionHeaders, selectionURL } from '@gateway/browser/explorer/client-configs';
import { extraToolsetsOf, groupByToolset, toolsetSizes } from '@gateway/browser/explorer/toolsets';
import { shellWord } from '@gateway/shared/shell-words';
import { TOOLSETS_META_KEY } from '@gateway/shared/toolset-meta';

const endpoint = 'http://localhost:3000/api/mcp';

const tool = (name: string, toolsets?: string[]): Tool => ({
  name,
  inputSchema: { type: 'object' },
  ...(toolsets && { _meta: { [TOOLSETS_META_KEY]: toolsets } }),
});

const configsOf = (selection: ConnectSelection) =>
  Object.fromEntries(clientConfigs(endpoint, selection).map((config) => [config.id, config.text]));

describe('toolsets', () => {
  const tools = [
    tool('UserController_getUser', ['UserController']),
    tool('TaskController_payTask', ['TaskController', 'billing']),
    tool('UserController_listUsers', ['UserController', 'billing', 'reports']),
    tool('sum_numbers', ['standalone']),
    tool('untagged'),
  ];

  test('each tool once, under its first toolset (its module), groups in the order their first tool is listed', () => {
    expect(groupByToolset(tools).map((group) => [group.name, group.tools.map((each) => each.name)])).toEqual([
      ['UserController', ['UserController_getUser', 'UserController_listUsers']],
      ['TaskController', ['TaskController_payTask']],
      ['standalone', ['sum_numbers']],
      ['other', ['untagged']],
    ]);
  });

  test('every toolset a client may choose, declared ones included, with how many tools each has', () => {
    expect(toolsetSizes(tools)).toEqual([
      { name: 'UserController', tools: 2 },
      { name: 'TaskController', tools: 1 },
      { name: 'billing', tools: 2 },
      { name: 'reports', tools: 1 },
      { name: 'standalone', tools: 1 },
    ]);
  });

  test('a tool’s tags are the toolsets it is in besides its module’s', () => {
    expect(extraToolsetsOf(tools[2])).toEqual(['billing', 'reports']);
    expect(extraToolsetsOf(tools[0])).toEqual([]);
    expect(extraToolsetsOf(tools[4])).toEqual([]);
  });
});

describe('client settings for a selection', () => {
  const chosen: ConnectSelection = { toolsets: ['TaskController', 'UserController'], readonly: true, surface: 'search', via: 'query' };
  const query = `${endpoint}?toolsets=TaskController,UserController&readonly=1&tools=search`;
  const headers = { 'X-MCP-Toolsets': 'TaskController,UserController', 'X-MCP-Readonly': '1', 'X-MCP-Tools': 'search' };

  test('nothing chosen: the plain endpoint, no headers, and VS Code’s http server entry', () => {
    expect(selectionURL(endpoint, NO_SELECTION)).toBe(endpoint);
    expect(selectionHeaders({ ...NO_SELECTION, via: 'headers' })).toEqual({});
    expect(JSON.parse(configsOf(NO_SELECTION).vscode)).toEqual({ servers: { 'vovk-gateway': { type: 'http', url: endpoint } } });
    expect(configsOf({ ...NO_SELECTION, via: 'headers' })).toEqual(configsOf(NO_SELECTION));
  });

  test('in the query: every client gets the URL with ?toolsets=…&readonly=1&tools=…, quoted for the shell', () => {
    expect(selectionURL(endpoint, chosen)).toBe(query);
    expect(selectionURL(endpoint, { ...NO_SELECTION, readonly: true })).toBe(`${endpoint}?readonly=1`);
    expect(selectionURL(endpoint, { ...NO_SELECTION, surface: 'all' })).toBe(`${endpoint}?tools=all`);
    const configs = configsOf(chosen);
    expect(JSON.parse(configs['claude-desktop'])).toEqual({
      mcpServers: { 'vovk-gateway': { command: 'npx', args: ['-y', 'mcp-remote', query] } },
    });
    expect(JSON.parse(configs.cursor)).toEqual({ mcpServers: { 'vovk-gateway': { url: query } } });
    expect(JSON.parse(configs.vscode)).toEqual({ servers: { 'vovk-gateway': { type: 'http', url: query } } });
    expect(configs.inspector).toBe(`npx -y @modelcontextprotocol/inspector --cli '${query}' --method tools/list`);
    expect(configs['mcp-remote']).toBe(`npx -y mcp-remote '${query}'`);
  });

  test('in headers: the plain URL, and X-MCP-Toolsets, X-MCP-Readonly, X-MCP-Tools where each client takes headers', () => {
    const viaHeaders = { ...chosen, via: 'headers' } as const;
    expect(selectionURL(endpoint, viaHeaders)).toBe(endpoint);
    expect(selectionHeaders(viaHeaders)).toEqual(headers);
    expect(selectionHeaders(chosen), 'the query carries it: no headers').toEqual({});
    const configs = configsOf(viaHeaders);
    const remoteArgs = Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}:${value}`]);
    expect(JSON.parse(configs['claude-desktop'])).toEqual({
      mcpServers: { 'vovk-gateway': { command: 'npx', args: ['-y', 'mcp-remote', endpoint, ...remoteArgs] } },
    });
    expect(JSON.parse(configs.cursor)).toEqual({ mcpServers: { 'vovk-gateway': { url: endpoint, headers } } });
    expect(JSON.parse(configs.vscode)).toEqual({ servers: { 'vovk-gateway': { type: 'http', url: endpoint, headers } } });
    expect(configs.inspector).toBe(
      `npx -y @modelcontextprotocol/inspector --cli ${endpoint} --method tools/list --header 'X-MCP-Toolsets: TaskController,UserController' --header 'X-MCP-Readonly: 1' --header 'X-MCP-Tools: search'`,
    );
    expect(configs['mcp-remote']).toBe(`npx -y mcp-remote ${endpoint} ${remoteArgs.join(' ')}`);
  });
});

test('shell words: plain URLs and options stay as they are; anything the shell would change is quoted', () => {
  expect(shellWord(endpoint)).toBe(endpoint);
  expect(shellWord('X-MCP-Toolsets:A,B')).toBe('X-MCP-Toolsets:A,B');
  expect(shellWord(`${endpoint}?a=1&b=2`)).toBe(`'${endpoint}?a=1&b=2'`);
  expect(shellWord("it's here")).toBe(`'it'\\''s here'`);
});
