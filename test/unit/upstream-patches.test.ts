// The patches of packages the gateway carries (patches/, applied by `npm ci`): what each changes, shown on the patched
// package itself, each test failing without its patch (docs/upstream/ has the pull requests written out).
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'mcp-handler';
import { afterEach, expect, test, vi } from 'vitest';
import { z } from 'zod';

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** A 2026-07-28 tools/call of `echo` as a client sends it (`body` replaces the JSON-RPC body). */
function modernCall(body?: string): Request {
  return new Request('http://localhost/api/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    },
    body: body ?? JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: envelope } }),
  });
}

/** mcp-handler's route handler with one tool, `echo`, as the gateway builds its own. */
const echoHandler = () =>
  createMcpHandler(
    (server: McpServer) => {
      server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({ content: [{ type: 'text', text }] }));
    },
    { serverInfo: { name: 'patch-test', version: '1.0.0' } },
  );

afterEach(() => vi.restoreAllMocks());

test('mcp-handler reads a request body once: no clone (a tee of the body) on the way to the SDK, which gets it parsed', async () => {
  const clone = vi.spyOn(Request.prototype, 'clone');
  const response = await echoHandler()(modernCall());
  const answer = await response.json();
  expect(answer).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'hi' }] } });
  expect(clone).not.toHaveBeenCalled();
});

test('a body that is no JSON still gets the SDK’s own parse error, from the bytes read once', async () => {
  const response = await echoHandler()(modernCall('{"jsonrpc": "2.0", "id": 7, '));
  expect(response.status).toBe(400);
  expect(await response.json()).toMatchObject({ error: { code: -32700 } });
});

test('importing mcp-handler compiles none of its events’ JSON Schema validators (they compile when an event request comes)', () => {
  // The CommonJS build, loaded natively: it reads fromJsonSchema off the SDK's exports object when it calls it.
  const require = createRequire(import.meta.url);
  const sdk = require('@modelcontextprotocol/server') as { fromJsonSchema: (...args: unknown[]) => unknown };
  const compile = vi.spyOn(sdk, 'fromJsonSchema');
  delete require.cache[require.resolve('mcp-handler')];
  require('mcp-handler');
  expect(compile).not.toHaveBeenCalled();
});
