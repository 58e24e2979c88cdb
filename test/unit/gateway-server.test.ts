// Unit tests of per-request server setup: a tools/call registers only the tool it names; anything else, every tool and
// every app's UI.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';
import { guarded } from '@/lib/http/guards';
import { createGatewayServer, noteCalledTool } from '@/lib/mcp/gateway-server';
import { requestContext, runInRequestContext } from '@/lib/request-context';
import { mcpApps } from '@/mcp-apps';
import { gatewayModules } from '@/modules';

type McpEvent = Parameters<typeof noteCalledTool>[0];

const setUpServer = createGatewayServer({ ...gatewayModules, apps: mcpApps }, { publicOrigin: () => 'http://localhost:3000', confirmDestructive: true }).setup;

/**
 * Serves one request in its context as mcp-handler does (report the event, then set the server up); returns the names
 * of the tools and the URIs of the resources registered.
 */
async function registeredAfter(event?: McpEvent): Promise<string[]> {
  const names: string[] = [];
  await runInRequestContext('mcp', async () => {
    await Promise.resolve();
    if (event) noteCalledTool(event);
    const register = { registerTool: (name: string) => names.push(name), registerResource: (_: string, uri: string) => names.push(uri) };
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

  test('tools/list, other methods and unknown tools register every tool and the apps’ UIs', async () => {
    const everything = await registeredAfter();
    expect(everything).toEqual(
      expect.arrayContaining(['UserController_getUser', 'sum_numbers', 'TextController_getGreeting', 'ui://vovk-mcp-gateway/board.html']),
    );
    expect(await registeredAfter(received('tools/list', {}))).toEqual(everything);
    expect(await registeredAfter(received('tools/call', { name: 'no_such_tool' }))).toEqual(everything);
    expect(await registeredAfter(received('tools/call', { name: 42 }))).toEqual(everything);
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
