// HTTP+SSE (`npm run bench -- --only sse`, issue 38): a tool call over the 2024-11-05 transport (SDK v1
// SSEClientTransport: a POST answered 202, the answer on the stream) beside the same call on a Streamable HTTP session
// (SDK v1), CLIENTS clients calling in parallel for `seconds`, one server (req/s, server CPU ms per call); the memory an
// open stream holds (RSS before and after opening STREAMS raw streams, each initialized); and a call whose POSTs reach
// another instance than its stream (two instances on one PostgreSQL) beside the same call on the stream's own instance.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const CLIENTS = 8;
const STREAMS = 200;
const RELAYED_CALLS = 60;
const CALL = { name: 'UserController_getUser', arguments: { params: { id: 1 } } };

/** An SDK v1 client over HTTP+SSE (stream on `baseURL`, its POSTs to `postTo` when given) or a Streamable HTTP session. */
async function client(baseURL, wire, postTo) {
  const sdk = new Client({ name: 'bench-sse', version: '1.0.0' });
  const retarget = postTo && ((input, init) => fetch(init?.method === 'POST' ? new URL(new URL(input).pathname + new URL(input).search, postTo) : input, init));
  const transport =
    wire === 'sse'
      ? new SSEClientTransport(new URL('/api/sse', baseURL), retarget ? { fetch: retarget } : {})
      : new StreamableHTTPClientTransport(new URL('/api/mcp', baseURL));
  await sdk.connect(transport);
  return sdk;
}

/** Calls per second of CLIENTS clients calling in a loop for `seconds`, and the server's CPU ms per call. */
async function throughput(server, wire, seconds, { cpuMs }) {
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => client(server.baseURL, wire)));
  try {
    for (const each of clients) await each.callTool(CALL);
    const until = performance.now() + seconds * 1000;
    const cpuBefore = cpuMs(server.pid);
    const started = performance.now();
    const counts = await Promise.all(
      clients.map(async (each) => {
        let calls = 0;
        while (performance.now() < until) {
          const result = await each.callTool(CALL);
          if (result.isError) throw new Error(JSON.stringify(result));
          calls++;
        }
        return calls;
      }),
    );
    const calls = counts.reduce((sum, count) => sum + count, 0);
    return { perSecond: calls / ((performance.now() - started) / 1000), cpuPerCall: (cpuMs(server.pid) - cpuBefore) / calls };
  } finally {
    await Promise.all(clients.map((each) => each.close()));
  }
}

/** RSS per open, initialized stream: STREAMS raw streams opened and initialized, RSS before and after (KiB each). */
async function memoryPerStream(server, { residentBytes }) {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));
  await settle();
  const before = residentBytes(server.pid);
  const controllers = [];
  for (let i = 0; i < STREAMS; i++) {
    const controller = new AbortController();
    controllers.push(controller);
    const response = await fetch(`${server.baseURL}/api/sse`, { signal: controller.signal });
    const reader = response.body.getReader();
    const endpoint = new TextDecoder().decode((await reader.read()).value).match(/data: (\S+)/)[1];
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
    const posted = await fetch(new URL(endpoint, server.baseURL), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(initialize) });
    if (posted.status !== 202) throw new Error(`initialize: HTTP ${posted.status}`);
  }
  await settle();
  const after = residentBytes(server.pid);
  for (const controller of controllers) controller.abort();
  return (after - before) / STREAMS / 1024;
}

/** Median ms of RELAYED_CALLS sequential calls by a client whose stream is on `streamOn` and whose POSTs go to `postTo`. */
async function callLatency(streamOn, postTo, { median }) {
  const sdk = await client(streamOn.baseURL, 'sse', postTo.baseURL);
  try {
    for (let i = 0; i < 5; i++) await sdk.callTool(CALL);
    const ms = [];
    for (let i = 0; i < RELAYED_CALLS; i++) {
      const started = performance.now();
      await sdk.callTool(CALL);
      ms.push(performance.now() - started);
    }
    return median(ms);
  } finally {
    await sdk.close();
  }
}

/** The figures, as Markdown lines; `port` … `port + 3` serve. */
export async function sseLines(helpers, port, env, { rounds, seconds }) {
  const { startServer, benchPostgres, cpuMs, residentBytes, median } = helpers;
  const lines = [`### HTTP+SSE (${CLIENTS} clients, ${seconds} s a run, ${rounds} rounds, one server)`, '', '| wire | calls/s | server CPU ms / call |', '| --- | ---: | ---: |'];
  const server = await startServer(port, { ...env, MCP_MAX_SESSIONS_PER_CALLER: '1000' });
  try {
    const runs = { streamable: [], sse: [] };
    for (let round = 0; round < rounds; round++) {
      for (const wire of round % 2 ? ['sse', 'streamable'] : ['streamable', 'sse']) runs[wire].push(await throughput(server, wire, seconds, { cpuMs }));
    }
    for (const [wire, label] of [['streamable', 'Streamable HTTP session (2025-11-25)'], ['sse', 'HTTP+SSE (2024-11-05 transport)']]) {
      lines.push(`| ${label} | ${median(runs[wire].map((run) => run.perSecond)).toFixed(0)} | ${median(runs[wire].map((run) => run.cpuPerCall)).toFixed(2)} |`);
    }
    const ratio = median(runs.sse.map((run, index) => run.perSecond / runs.streamable[index].perSecond));
    lines.push('', `HTTP+SSE ÷ Streamable HTTP, calls/s: ${ratio.toFixed(2)} (median of the rounds' ratios).`);
    lines.push('', `Memory: ${(await memoryPerStream(server, { residentBytes })).toFixed(0)} KiB RSS per open, initialized stream (${STREAMS} streams).`);
  } finally {
    await server.stop();
  }
  const database = await benchPostgres();
  const pgEnv = { ...env, DATABASE_URL: database.url };
  const [a, b] = [await startServer(port + 1, pgEnv), await startServer(port + 2, pgEnv)];
  try {
    const local = await callLatency(a, a, { median });
    const relayed = await callLatency(a, b, { median });
    lines.push('', `Across instances (PostgreSQL): a call whose POSTs reach the stream's own instance ${local.toFixed(1)} ms, another instance (relayed) ${relayed.toFixed(1)} ms (median of ${RELAYED_CALLS}).`);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await database.drop();
  }
  return lines;
}
