// The patches of packages the gateway carries (patches/, applied by `npm ci`): what each changes, shown on the patched
// package itself, each test failing without its patch (docs/upstream/ has the pull requests written out).
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/server';
import { createMcpHandler } from 'mcp-handler';
import { afterEach, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { longestSerialization } from '../support/serialization';

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

/** mcp-handler's route handler with one tool answering the image whose base64 is `data`. */
const imageHandler = (data: string) =>
  createMcpHandler(
    (server: McpServer) => {
      server.registerTool('image', { inputSchema: z.object({}) }, () => ({ content: [{ type: 'image', data, mimeType: 'image/png' }] }));
    },
    { serverInfo: { name: 'patch-test', version: '1.0.0' } },
  );

/** A 2026-07-28 tools/call of `image`, as a client sends it. */
const imageCall = () =>
  new Request('http://localhost/api/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'image' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'image', arguments: {}, _meta: envelope } }),
  });

test('the SDK writes a large base64 image into a JSON reply as its bytes, never serializing it into the reply text: the same bytes', async () => {
  const data = Buffer.from(Array.from({ length: 768 * 1024 }, (_, i) => (i * 31) & 255)).toString('base64');
  let text = '';
  const longest = await longestSerialization(async () => {
    text = await (await imageHandler(data)(imageCall())).text();
  });
  expect(longest).toBeLessThan(data.length);
  expect(text).toBe(JSON.stringify(JSON.parse(text))); // exactly what JSON.stringify of the reply writes
  expect(JSON.parse(text)).toMatchObject({ id: 3, result: { content: [{ type: 'image', data, mimeType: 'image/png' }] } });
});

test('a large base64 block that JSON must escape (line breaks, which base64 decoders accept) is serialized as before', async () => {
  const data = `${'QUJD'.repeat(20000)}\n${'REVG'.repeat(20000)}`;
  const text = await (await imageHandler(data)(imageCall())).text();
  expect(text).toContain('QUJD\\nREVG');
  expect(JSON.parse(text).result.content[0].data).toBe(data);
});

test('a result member carrying its serialization (a tools/list listing served many times) is written as those bytes, not serialized again', async () => {
  const tools = Array.from({ length: 300 }, (_, i) => ({ name: `tool_${i}`, description: `Tool number ${i}`, inputSchema: { type: 'object' as const } }));
  const serialized = Buffer.from(JSON.stringify(tools));
  Object.defineProperty(tools, Symbol.for('mcp.serializedJson'), { value: serialized });
  const handler = createMcpHandler(
    (server: McpServer) => {
      server.server.registerCapabilities({ tools: {} });
      server.server.setRequestHandler('tools/list', () => ({ tools }));
    },
    { serverInfo: { name: 'patch-test', version: '1.0.0' } },
  );
  const list = new Request('http://localhost/api/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: envelope } }),
  });
  let text = '';
  const longest = await longestSerialization(async () => {
    text = await (await handler(list)).text();
  });
  expect(longest).toBeLessThan(serialized.length);
  expect(text).toContain(serialized.toString());
  expect(text).toBe(JSON.stringify(JSON.parse(text)));
  expect(JSON.parse(text)).toMatchObject({ id: 4, result: { tools, resultType: 'complete' } });
});
