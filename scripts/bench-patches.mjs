// The patches of patches/ measured on their own packages, the way their upstream pull requests would show them
// (`npm run bench -- --only patches`), each package with its patch applied (node_modules) and reversed (a copy under
// test-reports/, whose imports still resolve to this node_modules), alternated: mcp-handler's route handler serving a
// 2026-07-28 tools/call in process (no HTTP, no Next.js) and its import in a fresh process; the SDK's own handler
// answering an 8 MiB image and a 209-tool tools/list; and the tried, not carried, server reuse (docs/upstream/README.md):
// the SDK's handler with a new server per request against one server handed back while idle, its gain's upper bound.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const CALLS = 3000;
const ROUNDS = 4;
const IMPORTS = 6;
const IMAGE_CALLS = 20;
const LISTED_TOOLS = 209;
const LISTINGS = 1000;

/** A copy of `name` (as node_modules/`name`) with its patch taken back out, the package as npm ships it: its entry. */
function unpatchedCopy(name, version) {
  const dir = path.join('test-reports/unpatched', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.cpSync(path.join('node_modules', name), dir, { recursive: true });
  const strip = 2 + name.split('/').length; // a/node_modules/<name>/…
  execFileSync('git', ['apply', '--reverse', `-p${strip}`, `--directory=${dir}`, `patches/${name.replace('/', '+')}+${version}.patch`]);
  return path.join(dir, 'dist/index.mjs');
}

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'getUser', arguments: { id: 1 }, _meta: envelope } });
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'getUser',
};

/** `server` with the one tool the exchanges call, getUser (the shape a gateway tool answers in), taking `input`. */
function withGetUser(server, input) {
  server.registerTool('getUser', { inputSchema: input }, ({ id }) => ({
    content: [{ type: 'text', text: JSON.stringify({ id, name: 'Ada Lovelace' }) }],
    structuredContent: { id, name: 'Ada Lovelace' },
  }));
  return server;
}

/** One checked tools/call of getUser through `handle` (a route handler: a Request in, a Response out). */
const getUserCallOf = (handle) => async () => {
  const text = await (await handle(new Request('http://localhost/api/mcp', { method: 'POST', headers, body }))).text();
  if (!text.includes('Ada Lovelace')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
};

/** The route handler of the mcp-handler at `entry`, with one tool, and a function making one call of it. */
async function exchangeOf(entry) {
  const { createMcpHandler } = await import(pathToFileURL(path.resolve(entry)).href);
  const { z } = await import('zod');
  const input = z.object({ id: z.number() });
  return getUserCallOf(createMcpHandler((server) => void withGetUser(server, input), { serverInfo: { name: 'bench', version: '1.0.0' } }));
}

/** The SDK's own handler (at `entry`) with one tool answering an 8 MiB image, and a function making one call of it. */
async function imageExchangeOf(entry) {
  const { createMcpHandler, McpServer } = await import(pathToFileURL(path.resolve(entry)).href);
  const { z } = await import('zod');
  const data = Buffer.from(Array.from({ length: 8 * 1024 * 1024 }, (_, i) => (i * 31) & 255)).toString('base64');
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    server.registerTool('image', { description: 'An 8 MiB image', inputSchema: z.object({}) }, () => ({ content: [{ type: 'image', data, mimeType: 'image/png' }] }));
    return server;
  });
  const imageBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'image', arguments: {}, _meta: envelope } });
  const imageHeaders = { ...headers, 'mcp-name': 'image' };
  return async () => {
    const bytes = await (await handler.fetch(new Request('http://localhost/mcp', { method: 'POST', headers: imageHeaders, body: imageBody }))).arrayBuffer();
    if (bytes.byteLength < data.length) throw new Error(`unexpected answer of ${bytes.byteLength} bytes`);
  };
}

/**
 * The SDK's own handler (at `entry`) answering a 2026-07-28 tools/list of 209 tools the way the gateway's listing cache
 * does (the same result each time, its tools carrying their serialization), and a function making one call of it.
 */
async function listingExchangeOf(entry) {
  const { createMcpHandler, McpServer } = await import(pathToFileURL(path.resolve(entry)).href);
  const property = (i) => ({ type: 'string', description: `Field ${i} of the record, as the REST route takes it` });
  const tools = Array.from({ length: LISTED_TOOLS }, (_, i) => ({
    name: `Generated${i}Controller_getRecord`,
    description: `Reads record ${i} of the generated module: a procedure of the back end, derived as a tool.`,
    inputSchema: { type: 'object', properties: Object.fromEntries(Array.from({ length: 6 }, (_, p) => [`field${p}`, property(p)])), required: ['field0'] },
    annotations: { readOnlyHint: true },
  }));
  Object.defineProperty(tools, Symbol.for('mcp.serializedJson'), { value: Buffer.from(JSON.stringify(tools)) });
  const result = { tools };
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'bench', version: '1.0.0' });
    server.server.registerCapabilities({ tools: {} });
    server.server.setRequestHandler('tools/list', () => result);
    return server;
  });
  const listBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } });
  const listHeaders = { ...headers, 'mcp-method': 'tools/list' };
  delete listHeaders['mcp-name'];
  return async () => {
    const text = await (await handler.fetch(new Request('http://localhost/mcp', { method: 'POST', headers: listHeaders, body: listBody }))).text();
    if (!text.includes(`Generated${LISTED_TOOLS - 1}Controller`)) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
  };
}

/**
 * The SDK's own handler serving a 2026-07-28 tools/call of one tool with a new McpServer (its tool registered) per
 * request, as mcp-handler and the gateway do, or (`reuse`) with one server the factory hands back every time: the calls
 * run one after another, so it is always idle again (its exchange closed) when the next comes. Not safe as the SDK
 * stands (per-exchange state lives on the server); what it could gain at most.
 */
async function serverExchangeOf(reuse) {
  const { createMcpHandler, McpServer } = await import('@modelcontextprotocol/server');
  const { z } = await import('zod');
  const input = z.object({ id: z.number() });
  const serverWithTool = () => withGetUser(new McpServer({ name: 'bench', version: '1.0.0' }), input);
  let kept;
  const handler = createMcpHandler(reuse ? () => (kept ??= serverWithTool()) : serverWithTool);
  return getUserCallOf((request) => handler.fetch(request));
}

/** µs of wall and CPU time per call over `calls` calls. */
async function perCall(call, calls = CALLS) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call();
  const used = process.cpuUsage(cpu);
  return { wall: ((performance.now() - started) * 1000) / calls, cpu: (used.user + used.system) / calls };
}

/** Each of `calls` (name → one call) measured `rounds` times, alternated (A B, B A, …), after a warm-up. */
async function alternated(calls, count) {
  const figures = Object.fromEntries(Object.keys(calls).map((name) => [name, { wall: [], cpu: [] }]));
  for (const call of Object.values(calls)) await perCall(call, Math.ceil(count / 4)); // warm-up: both optimized alike
  for (let round = 0; round < ROUNDS; round++) {
    const names = round % 2 ? Object.keys(calls).reverse() : Object.keys(calls);
    for (const name of names) {
      const { wall, cpu } = await perCall(calls[name], count);
      figures[name].wall.push(wall);
      figures[name].cpu.push(cpu);
    }
  }
  return figures;
}

/** ms to import the SDK and then the mcp-handler at `entry` in a fresh Node process: the handler's part. */
function importMs(entry) {
  const script = `const t0 = performance.now(); await import('@modelcontextprotocol/server'); const t1 = performance.now();
    await import(${JSON.stringify(pathToFileURL(path.resolve(entry)).href)}); console.log(performance.now() - t1);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return Number(run.stdout.trim());
}

const span = (values, digits = 0) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/** The figures, as Markdown lines. */
export async function patchLines() {
  const handlers = { patched: 'node_modules/mcp-handler/dist/index.mjs', 'as published': unpatchedCopy('mcp-handler', '2.4.0') };
  const calls = {};
  for (const [name, entry] of Object.entries(handlers)) calls[name] = await exchangeOf(entry);
  const handlerFigures = await alternated(calls, CALLS);
  for (let i = 0; i < IMPORTS; i++) {
    for (const [name, entry] of Object.entries(handlers)) (handlerFigures[name].importMs ??= []).push(importMs(entry));
  }
  const sdks = { patched: 'node_modules/@modelcontextprotocol/server/dist/index.mjs', 'as published': unpatchedCopy('@modelcontextprotocol/server', '2.4.0') };
  const imageCalls = {};
  for (const [name, entry] of Object.entries(sdks)) imageCalls[name] = await imageExchangeOf(entry);
  const imageFigures = await alternated(imageCalls, IMAGE_CALLS);
  const listingCalls = {};
  for (const [name, entry] of Object.entries(sdks)) listingCalls[name] = await listingExchangeOf(entry);
  const listingFigures = await alternated(listingCalls, LISTINGS);
  const serverCalls = { 'a server per request (as published)': await serverExchangeOf(false), 'one server reused while idle (tried)': await serverExchangeOf(true) };
  const serverFigures = await alternated(serverCalls, CALLS);
  const ms = (values) => values.map((value) => value / 1000);
  return [
    `### mcp-handler 2.4.0 with and without patches/mcp-handler+2.4.0.patch (min–max of ${ROUNDS} rounds of ${CALLS} calls; ${IMPORTS} imports)`,
    '',
    '| mcp-handler | µs a tools/call, wall | µs a tools/call, CPU | import after the SDK, ms |',
    '| --- | ---: | ---: | ---: |',
    ...Object.entries(handlerFigures).map(([name, f]) => `| ${name} | ${span(f.wall)} | ${span(f.cpu)} | ${span(f.importMs, 1)} |`),
    '',
    `### @modelcontextprotocol/server 2.4.0 with and without its patch: an 8 MiB image answered by its own handler (min–max of ${ROUNDS} rounds of ${IMAGE_CALLS} calls)`,
    '',
    '| SDK | ms a call, wall | ms a call, CPU |',
    '| --- | ---: | ---: |',
    ...Object.entries(imageFigures).map(([name, f]) => `| ${name} | ${span(ms(f.wall), 1)} | ${span(ms(f.cpu), 1)} |`),
    '',
    `### … and a tools/list of ${LISTED_TOOLS} tools whose tools carry their serialization, as the gateway's listing cache answers it (min–max of ${ROUNDS} rounds of ${LISTINGS} calls)`,
    '',
    '| SDK | µs a call, wall | µs a call, CPU |',
    '| --- | ---: | ---: |',
    ...Object.entries(listingFigures).map(([name, f]) => `| ${name} | ${span(f.wall)} | ${span(f.cpu)} |`),
    '',
    `### Tried, not carried: @modelcontextprotocol/server 2.4.0 reusing one server for a stateless tools/call, the upper bound of its gain (min–max of ${ROUNDS} rounds of ${CALLS} calls)`,
    '',
    '| SDK handler | µs a tools/call, wall | µs a tools/call, CPU |',
    '| --- | ---: | ---: |',
    ...Object.entries(serverFigures).map(([name, f]) => `| ${name} | ${span(f.wall)} | ${span(f.cpu)} |`),
  ];
}
