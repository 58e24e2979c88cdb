// Unit tests of per-request server setup: a tools/call registers only the tool it names; a tools/list is answered from
// the listing cache once its kind of caller was listed; anything else, every tool and every app's UI.
import { type ListToolsResult, McpServer, type ResourceTemplate } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'mcp-handler';
import { describe, expect, test } from 'vitest';
import { guarded } from '@gateway/http/guards';
import { createGatewayServer, noteCalledTool } from '@gateway/mcp/gateway-server';
import { sdkRequestHandler } from '@gateway/mcp/register-tools';
import { type Caller, requestContext, runInRequestContext } from '@gateway/request-context';
import { READ_SCOPE, WRITE_SCOPE } from '@gateway/shared/scope-names';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';
import { testGatewayOptions } from '../support/gateway-options';
import { longestSerialization } from '../support/serialization';

type McpEvent = Parameters<typeof noteCalledTool>[0];

const gatewayOptions = testGatewayOptions();
const setUpServer = createGatewayServer({ ...gatewayModules, apps: mcpApps }, gatewayOptions).setup;

/**
 * Serves one request in its context as mcp-handler does (report the event, then set the server up); returns the names
 * of the tools and the URIs of the resources registered.
 */
async function registeredAfter(event?: McpEvent): Promise<string[]> {
  const names: string[] = [];
  await runInRequestContext('mcp', async () => {
    await Promise.resolve();
    if (event) noteCalledTool(event);
    const register = {
      registerTool: (name: string) => names.push(name),
      registerResource: (_: string, uri: string | ResourceTemplate) => names.push(typeof uri === 'string' ? uri : uri.uriTemplate.toString()),
      server: { registerCapabilities: () => {}, setRequestHandler: () => {} },
    };
    setUpServer(register as unknown as McpServer);
  });
  return names;
}

const received = (method: string, params: unknown): McpEvent => ({
  type: 'REQUEST_RECEIVED',
  timestamp: Date.now(),
  method,
  status: 'success',
  parameters: { jsonrpc: '2.0', id: 1, method, params },
});

describe('per-request tool registration', () => {
  test('a tools/call registers only the called tool', async () => {
    expect(await registeredAfter(received('tools/call', { name: 'UserController_getUser', arguments: {} }))).toEqual([
      'UserController_getUser',
    ]);
  });

  test('other methods register every tool and the apps’ UIs; a tools/list, every tool', async () => {
    const everything = await registeredAfter();
    expect(everything).toEqual(
      expect.arrayContaining([
        'UserController_getUser',
        'sum_numbers',
        'TextController_getGreeting',
        'ui://vovk-mcp-gateway/board.html',
        'vovk://gateway/api/board',
        'vovk://gateway/api/tasks/{id}',
      ]),
    );
    // A tools/list (the fake server keeps no listing) registers every tool, and no UI: it lists tools only.
    expect(await registeredAfter(received('tools/list', {}))).toEqual(everything.filter((name) => !/^(ui|vovk):\/\//.test(name)));
  });

  test('a call through call_tool registers the tool it names and call_tool; a call of no served tool, the surface’s own', async () => {
    const throughCallTool = { name: 'call_tool', arguments: { name: 'UserController_getUser', arguments: {} } };
    expect(await registeredAfter(received('tools/call', throughCallTool))).toEqual(['UserController_getUser', 'call_tool']);
    expect(await registeredAfter(received('tools/call', { name: 'search_tools', arguments: { query: 'user' } }))).toEqual(['search_tools']);
    // Nothing to run: the SDK's tools/call (installed with the first tool) answers that the tool is unknown.
    expect(await registeredAfter(received('tools/call', { name: 'execute', arguments: { code: '1' } }))).toEqual(['execute']);
    expect(await registeredAfter(received('tools/call', { name: 'no_such_tool' }))).toEqual(['search_tools', 'call_tool', 'execute']);
    expect(await registeredAfter(received('tools/call', { name: 42 }))).toEqual(['search_tools', 'call_tool', 'execute']);
  });

  test('the noted tool stays within its own request', async () => {
    await registeredAfter(received('tools/call', { name: 'sum_numbers' }));
    expect(requestContext()).toBeUndefined();
    noteCalledTool(received('tools/call', { name: 'sum_numbers' }));
    expect(requestContext()).toBeUndefined();
  });

  test('the guards give each request its own context, of its door', async () => {
    const seen: unknown[] = [];
    const handler = async () => {
      seen.push(requestContext());
      return new Response('served');
    };
    await guarded(handler, 'rest')(new Request('http://localhost/api/users', { headers: { host: 'localhost' } }));
    await guarded(handler, 'mcp')(new Request('http://localhost/api/mcp', { method: 'POST', body: '{}', headers: { host: 'localhost' } }));
    expect(seen).toEqual([expect.objectContaining({ door: 'rest' }), expect.objectContaining({ door: 'mcp' })]);
    expect(seen[0]).not.toBe(seen[1]);
  });

  test('a declared body over MCP_MAX_BODY_BYTES is refused unread with 413', async () => {
    const handler = guarded(async () => new Response('served'), 'mcp');
    const huge = new Request('http://localhost/api/mcp', {
      method: 'POST',
      body: 'x',
      headers: { host: 'localhost', 'Content-Length': String(2 ** 30) },
    });
    const response = await handler(huge);
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toMatch(/must not exceed 1048576 bytes/);
  });
});

describe('the tools/list cache', () => {
  type Listed = { tools: string[]; registered: number };
  /**
   * One stateless tools/list on a real McpServer set up by a fresh gateway's `setup`, as `caller` (none: auth off) of
   * the era `protocol` names: the tools listed, and how many tools the request registered.
   */
  const listerOf = (setup: (server: McpServer) => void) =>
    async function list(caller?: Caller, protocol?: string): Promise<Listed> {
      const headers = protocol ? { 'mcp-protocol-version': protocol } : undefined;
      const request = new Request('http://localhost/api/mcp', { method: 'POST', headers });
      return runInRequestContext(
        'mcp',
        async () => {
          requestContext()!.caller = caller;
          noteCalledTool(received('tools/list', {}));
          const server = new McpServer({ name: 'test', version: '1' });
          let registered = 0;
          const registerTool = server.registerTool.bind(server);
          server.registerTool = ((...args: Parameters<typeof registerTool>) => (registered++, registerTool(...args))) as typeof registerTool;
          setup(server);
          const listTools = sdkRequestHandler<(request: unknown, ctx: unknown) => Promise<ListToolsResult>>(server, 'tools/list')!;
          const { tools } = await listTools({ method: 'tools/list', params: {} }, {});
          return { tools: tools.map((tool) => tool.name), registered };
        },
        request,
      );
    };

  test('a tools/call of a tool that cannot become a task sets up no tasks layer', async () => {
    const { setup } = createGatewayServer({ ...gatewayModules, apps: mcpApps }, gatewayOptions);
    const layersFor = (params: unknown) =>
      runInRequestContext(
        'mcp',
        async () => {
          noteCalledTool(received('tools/call', params));
          const server = new McpServer({ name: 'test', version: '1' });
          setup(server);
          return { tasks: sdkRequestHandler(server, 'tasks/get') !== undefined };
        },
        new Request('http://localhost/api/mcp', { method: 'POST' }),
      );
    expect(await layersFor({ name: 'UserController_getUser', arguments: {} })).toEqual({ tasks: false });
    // A long-running tool may become a task: directly, or through call_tool.
    expect(await layersFor({ name: 'TaskController_importTasks', arguments: {} })).toEqual({ tasks: true });
    expect(await layersFor({ name: 'call_tool', arguments: { name: 'TaskController_importTasks', arguments: {} } })).toEqual({ tasks: true });
    // Anything but a call (tasks/get itself, initialize…) has the tasks layer.
    const other = await runInRequestContext('mcp', async () => {
      const server = new McpServer({ name: 'test', version: '1' });
      setup(server);
      return sdkRequestHandler(server, 'tasks/get') !== undefined;
    });
    expect(other).toBe(true);
  });

  test('the first tools/list of a kind registers and lists its tools; the next ones get the same listing, registering none', async () => {
    const list = listerOf(createGatewayServer({ ...gatewayModules, apps: mcpApps }, gatewayOptions).setup);
    const first = await list();
    expect(first.tools).toEqual(expect.arrayContaining(['UserController_getUser', 'TaskController_deleteTask', 'sum_numbers']));
    expect(first.registered).toBe(first.tools.length);
    expect(await list()).toEqual({ tools: first.tools, registered: 0 });
  });

  test('callers whose scopes differ get listings of their own; scopes no tool needs change nothing; each era its own', async () => {
    const list = listerOf(createGatewayServer({ ...gatewayModules, apps: mcpApps }, gatewayOptions).setup);
    const reader: Caller = { subject: 'ada', clientId: 'c', scopes: [READ_SCOPE] };
    const writer: Caller = { subject: 'alan', clientId: 'c', scopes: [WRITE_SCOPE, READ_SCOPE] };
    const all = await list();
    const read = await list(reader);
    expect(read.registered).toBeGreaterThan(0);
    expect(read.tools).toContain('UserController_getUser');
    expect(read.tools).not.toContain('TaskController_deleteTask');
    expect(read.tools.length).toBeLessThan(all.tools.length);
    const readWrite = await list(writer);
    expect(readWrite.registered).toBeGreaterThan(0);
    expect(readWrite.tools).toContain('TaskController_deleteTask');
    // Another reader, holding a scope no tool asks for, is the same kind of caller: served from the cache.
    expect(await list({ subject: 'grace', clientId: 'd', scopes: ['profile', READ_SCOPE] })).toEqual({ tools: read.tools, registered: 0 });
    const modern = await list(undefined, '2026-07-28');
    expect(modern.registered).toBe(all.tools.length);
    expect(await list(undefined, '2026-07-28')).toEqual({ tools: all.tools, registered: 0 });
  });

  test('a 2026-07-28 listing from the cache is written by the SDK without serializing its tools again (and without `execution`, which that era has not)', async () => {
    const gateway = createGatewayServer({ ...gatewayModules, apps: mcpApps }, gatewayOptions);
    const handler = createMcpHandler(gateway.setup, { serverInfo: { name: 'test', version: '1' }, onEvent: noteCalledTool, ...gateway.serverOptions });
    const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const listed = (id: number) => {
      const request = new Request('http://localhost/api/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: envelope } }),
      });
      return runInRequestContext('mcp', async () => (await handler(request)).text(), request);
    };
    const first = JSON.parse(await listed(1));
    const toolsJson = JSON.stringify(first.result.tools);
    let again = '';
    const longest = await longestSerialization(async () => {
      again = await listed(2);
    });
    expect(longest).toBeLessThan(toolsJson.length);
    expect(again).toContain(toolsJson);
    expect(JSON.parse(again)).toMatchObject({ id: 2, result: { tools: first.result.tools, resultType: 'complete' } });
    expect(first.result.tools.map((tool: { name: string }) => tool.name)).toContain('TaskController_importTasks'); // a task tool
    expect(first.result.tools.filter((tool: object) => 'execution' in tool)).toEqual([]);
  });
});
