// Unit tests of per-request server setup: a tools/call registers only the tool it names; anything else, every tool.
import type { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, test } from 'vitest';
import { initializeGatewayServer } from '@/lib/mcp/gateway-server';
import { calledToolName, noteCalledTool, withRequestScope } from '@/lib/mcp/request-scope';

type McpEvent = Parameters<typeof noteCalledTool>[0];

/** Serves one request through the scope as mcp-handler does (report the event, then set the server up); returns the names registered. */
async function registeredAfter(event?: McpEvent): Promise<string[]> {
  const names: string[] = [];
  const handler = withRequestScope(async () => {
    await Promise.resolve();
    if (event) noteCalledTool(event);
    initializeGatewayServer({ registerTool: (name: string) => names.push(name) } as unknown as McpServer);
    return new Response('ok');
  });
  await handler(new Request('http://localhost/api/mcp', { method: 'POST', body: '{}' }));
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

  test('tools/list, other methods and unknown tools register every tool', async () => {
    const everything = await registeredAfter();
    expect(everything).toEqual(expect.arrayContaining(['UserController_getUser', 'sum_numbers', 'TextController_getGreeting']));
    expect(await registeredAfter(received('tools/list', {}))).toEqual(everything);
    expect(await registeredAfter(received('tools/call', { name: 'no_such_tool' }))).toEqual(everything);
    expect(await registeredAfter(received('tools/call', { name: 42 }))).toEqual(everything);
  });

  test('the noted tool stays within its own request', async () => {
    await registeredAfter(received('tools/call', { name: 'sum_numbers' }));
    expect(calledToolName()).toBeUndefined();
    noteCalledTool(received('tools/call', { name: 'sum_numbers' }));
    expect(calledToolName()).toBeUndefined();
  });

  test('a declared body over MCP_MAX_BODY_BYTES is refused unread with 413', async () => {
    const handler = withRequestScope(async () => new Response('served'));
    const huge = new Request('http://localhost/api/mcp', { method: 'POST', body: 'x', headers: { 'Content-Length': String(2 ** 30) } });
    const response = await handler(huge);
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toMatch(/must not exceed 1048576 bytes/);
  });
});
