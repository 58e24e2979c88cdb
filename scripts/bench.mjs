// The benchmark: what reaching a procedure through MCP costs against REST, a hand-written tool and the bare floors, as
// clients call (with and without Accept-Encoding, official SDK clients for media), on loopback (test build); cold
// start; how fast a task import goes on SQLite and PostgreSQL (TEST_DATABASE_URL: the cluster scripts/bench.sh starts).
// Toolsets and tool search at 20, 200 and 1,000 tools (--only catalogue); code mode's execute (--only code); the board
// app's requests per minute in the explorer (--only board-app [--window seconds], scripts/bench-board-app.mjs); the
// server's CPU profile under load, split by origin (--only profile, scripts/bench-profile.mjs); the MCP door's targets
// of issue 27, optionally beside another checkout's test build (--only targets [--against DIR], scripts/bench-targets.mjs);
// the patches of patches/ on their own packages, with and without (--only patches, scripts/bench-patches.mjs); a streamed
// procedure over REST and as a tool, by client, with and without progress (--only streams [--items N --calls N],
// scripts/bench-streams.mjs); a plain tool call's hot path beside another checkout's build (--only hot-path [--against
// DIR], scripts/bench-hot-path.mjs); the door in an adopting app beside the reference app (--only adoption,
// scripts/bench-adoption.mjs); the result budget's cost, A/B (--only budget, scripts/bench-budget.mjs); the bytes a
// 20-turn session downloads with and without honoured cache hints (--only cache-hints [--turns N --turn-seconds S],
// scripts/bench-cache-hints.mjs); `vovk-mcp-gateway tools check` on the 1,000-procedure catalogue (--only contract,
// scripts/bench-contract.mjs); a tool call over HTTP+SSE beside Streamable HTTP, memory per open stream, relayed
// messages (--only sse, scripts/bench-sse.mjs).
// Usage: npm run bench [-- --seconds N --rounds N --match 'text|text…' | --only import|media|tasks|catalogue|code|resources|board-app|profile|targets|patches|streams|hot-path|adoption|budget|cache-hints|contract|sse].
// Prints Markdown; BENCH_OUT=file also writes it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import autocannon from 'autocannon';
import pg from 'pg';
import { boardAppLines } from './bench-board-app.mjs';
import { contractLines } from './bench-contract.mjs';
import { adoptionLines } from './bench-adoption.mjs';
import { hotPathLines } from './bench-hot-path.mjs';
import { patchLines } from './bench-patches.mjs';
import { profileLines } from './bench-profile.mjs';
import { resourceLines } from './bench-resources.mjs';
import { cacheHintLines } from './bench-cache-hints.mjs';
import { sseLines } from './bench-sse.mjs';
import { streamLines } from './bench-streams.mjs';
import { budgetLines } from './bench-budget.mjs';
import { targetLines } from './bench-targets.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const SECONDS = Number(args.seconds ?? 3);
const ROUNDS = Number(args.rounds ?? 3);
const CONNECTIONS = 8;
const MIB = 1024 * 1024;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** The CPU time (user + system) the process has used so far, in ms, from /proc (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
/** What browsers and Node's fetch send; autocannon sends no Accept-Encoding at all. */
const CLIENT_ENCODINGS = 'gzip, deflate';
const residentBytes = (pid) => Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) * 1024;

/**
 * Starts the test build of the checkout in `dir` (default: this one) on `port`; resolves once `ready` (default: the
 * first tools/list) answered: the cold start.
 */
async function startServer(port, env, ready = firstToolsList, dir = '.') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(dir, 'server/gateway.mjs'), '-p', String(port)], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', GATEWAY_TEST_BUILD: '1', PORT: String(port), DATABASE_FILE: path.join(dataDir, 'gateway.db'), ...env },
    stdio: 'ignore',
  });
  const baseURL = `http://localhost:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}`);
    try {
      if (await ready(baseURL)) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const coldStartMs = performance.now() - started;
  return {
    baseURL,
    pid: child.pid,
    coldStartMs,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The cold start a client sees: the first tools/list answered (the first request of every MCP client), listed flat. */
async function firstToolsList(baseURL) {
  const response = await fetch(`${baseURL}/api/mcp?tools=all`, mcpRequest('tools/list', {}));
  return response.ok && (await response.text()).includes('UserController_getUser');
}

/** The cold start a browser or script sees: the first REST answer. */
async function firstRestAnswer(baseURL) {
  const response = await fetch(`${baseURL}/api/users/1`);
  return response.ok && (await response.text()).includes('Ada Lovelace');
}

/** The cold start's floor: the first answer of the bare Next.js route (Next.js and the gateway's start-up, no door). */
async function firstFloorAnswer(baseURL) {
  const response = await fetch(`${baseURL}/api/bench-floor/rest`);
  return response.ok && (await response.text()).includes('Ada Lovelace');
}

/**
 * fetch options of one JSON-RPC request; `era: '2026'` adds the 2026-07-28 headers and request `_meta`, declaring
 * `capabilities` (e.g. elicitation, which makes destructive tools ask first).
 */
function mcpRequest(method, params, era = '2025', capabilities = {}) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (era === '2026') {
    Object.assign(headers, { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method });
    if (params.name ?? params.taskId) headers['Mcp-Name'] = params.name ?? params.taskId;
    params = {
      ...params,
      _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities },
    };
  }
  return { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) };
}

const toolCall = (name, args, era) => mcpRequest('tools/call', { name, arguments: args }, era);

/** Starts a 2025-era session on `server` (initialize, initialized); returns the headers of requests on it. */
async function sessionHeaders(server) {
  const { headers } = mcpRequest('ping', {});
  const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };
  const response = await fetch(`${server.baseURL}/api/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize }),
  });
  await response.text();
  const session = { ...headers, 'Mcp-Session-Id': response.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await (await fetch(`${server.baseURL}/api/mcp`, { method: 'POST', headers: session, body: initialized })).text();
  return session;
}

const ELICITATION = { elicitation: { form: {} } };
const deleteTask = { name: 'TaskController_deleteTask', arguments: { params: { id: 1 } } };

/**
 * The two legs of a confirmation (2026-07-28), both repeatable: the first call of deleteTask by a client that can be
 * asked (→ input_required), and its retry with the answer "decline" (→ isError, task kept) under a state minted once.
 */
async function confirmationLegs(gateway) {
  const ask = mcpRequest('tools/call', deleteTask, '2026', ELICITATION);
  const asked = await (await fetch(`${gateway.baseURL}/api/mcp`, ask)).json();
  const { requestState } = asked.result;
  const answer = { inputResponses: { confirmation: { action: 'decline' } }, requestState };
  return { ask, retry: mcpRequest('tools/call', { ...deleteTask, ...answer }, '2026', ELICITATION) };
}

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const countOnce = { name: 'FixtureController_countSlowly', arguments: { body: { to: 1, stepMs: 0 } } };
const POLL_MS = 10;

/** The JSON-RPC result of one request (plain JSON or the last SSE `data:` line) to `path` (default the MCP endpoint). */
async function resultOf(server, request, path = '/api/mcp') {
  const text = await (await fetch(`${server.baseURL}${path}`, request)).text();
  const json = text.startsWith('{') ? text : text.match(/^data: (.+)$/gm).at(-1).slice(6);
  return JSON.parse(json).result;
}

/**
 * What running a call as a task costs over a direct call, sequentially (median of `times`): the direct call, and a
 * task's create plus its tasks/get polls (every POLL_MS) to the result; the same for a REST job against the REST call.
 */
async function taskCost(server, times) {
  const direct = [];
  const task = [];
  const polls = [];
  const rest = [];
  const job = [];
  const restCall = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(countOnce.arguments.body) };
  for (let i = 0; i < times; i++) {
    let started = performance.now();
    await resultOf(server, mcpRequest('tools/call', countOnce, '2026'));
    direct.push(performance.now() - started);
    started = performance.now();
    const { taskId } = await resultOf(server, mcpRequest('tools/call', countOnce, '2026', TASKS));
    let count = 0;
    while ((await resultOf(server, mcpRequest('tasks/get', { taskId }, '2026', TASKS))).status !== 'completed') {
      count++;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    task.push(performance.now() - started);
    polls.push(count + 1);
    started = performance.now();
    await (await fetch(`${server.baseURL}/api/fixture/count`, restCall)).text();
    rest.push(performance.now() - started);
    started = performance.now();
    const { id } = await (await fetch(`${server.baseURL}/api/fixture/count`, { ...restCall, headers: { ...restCall.headers, prefer: 'respond-async' } })).json();
    while ((await (await fetch(`${server.baseURL}/api/jobs/${id}`)).json()).status !== 'completed') await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    job.push(performance.now() - started);
  }
  return { directMs: median(direct), taskMs: median(task), polls: median(polls), restMs: median(rest), jobMs: median(job) };
}

/** Every scenario: which server, which request, and how its answer must look (checked once before the load). */
function scenarios(gateway, small, catalogue, confirmation, session) {
  const user = { params: { id: 1 } };
  // A session's requests in progress need ids of their own (the transport maps answers by id).
  let nextId = 1;
  const onSession = { ...toolCall('UserController_getUser', user), headers: session };
  onSession.requests = [{ setupRequest: (request) => ({ ...request, body: onSession.body.replace('"id":1', `"id":${nextId++}`) }) }];
  const get = (server, urlPath) => ({ server, path: urlPath, request: { method: 'GET' } });
  const post = (server, urlPath, request) => ({ server, path: urlPath, request });
  return [
    { name: 'REST GET /api/users/1', ...get(gateway, '/api/users/1'), expect: '"Ada Lovelace"' },
    { name: 'REST floor: bare Next.js route, same JSON', ...get(gateway, '/api/bench-floor/rest'), expect: '"Ada Lovelace"' },
    { name: 'MCP tools/call getUser (2025 framing)', ...post(gateway, '/api/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    { name: 'MCP tools/call getUser (2026-07-28)', ...post(gateway, '/api/mcp', toolCall('UserController_getUser', user, '2026')), expect: 'structuredContent' },
    { name: 'MCP floor: bare mcp-handler route (2025 framing)', ...post(gateway, '/api/bench-floor/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    { name: 'MCP floor: bare mcp-handler route (2026-07-28)', ...post(gateway, '/api/bench-floor/mcp', toolCall('UserController_getUser', user, '2026')), expect: 'structuredContent' },
    // The same call on a 2025-era session: the SDK's sessionful transport, each SSE event stored (SQLite) before it goes.
    { name: 'MCP tools/call getUser (2025 session)', ...post(gateway, '/api/mcp', onSession), expect: 'structuredContent' },
    // The floor's tool behind the REST door's guards: what derivation costs, guards alike.
    { name: 'hand-written registerTool getUser', ...post(gateway, '/api/bench/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    { name: 'MCP ping (transport floor, no tool)', ...post(gateway, '/api/mcp', mcpRequest('ping', {})), expect: '"result":{}' },
    { name: 'MCP getTask (2026-07-28)', ...post(gateway, '/api/mcp', toolCall('TaskController_getTask', user, '2026')), expect: 'structuredContent' },
    { name: 'MCP deleteTask, 1st leg: input_required (2026-07-28)', ...post(gateway, '/api/mcp', confirmation.ask), expect: '"input_required"' },
    { name: 'MCP deleteTask, 2nd leg: retry, declined (2026-07-28)', ...post(gateway, '/api/mcp', confirmation.retry), expect: 'the user declined' },
    // The catalogue pairs: two servers alike but for 200 generated tools, each pair measured back to back (A B).
    { name: 'MCP tools/call, 9-tool server', ...post(small, '/api/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    { name: 'MCP tools/call, 209-tool server', ...post(catalogue, '/api/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    // Listed flat (?tools=all): beyond MCP_LIST_MAX tools the default surface would be search's two tools.
    { name: 'MCP tools/list, 9-tool server', ...post(small, '/api/mcp?tools=all', mcpRequest('tools/list', {})), expect: 'sum_numbers' },
    { name: 'MCP tools/list, 209-tool server', ...post(catalogue, '/api/mcp?tools=all', mcpRequest('tools/list', {})), expect: 'bench_tool_200' },
    { name: 'MCP tools/list, 9-tool server (2026-07-28)', ...post(small, '/api/mcp?tools=all', mcpRequest('tools/list', {}, '2026')), expect: 'sum_numbers' },
    { name: 'MCP tools/list, 209-tool server (2026-07-28)', ...post(catalogue, '/api/mcp?tools=all', mcpRequest('tools/list', {}, '2026')), expect: 'bench_tool_200' },
    { name: 'REST GET /api/board (large JSON)', ...get(gateway, '/api/board'), expect: '"columns"' },
    { name: 'REST image 1 MiB', ...get(gateway, '/api/bench/image?mib=1'), connections: 2 },
    { name: 'MCP image 1 MiB', ...post(gateway, '/api/mcp', toolCall('BenchController_getLargeImage', { query: { mib: '1' } })), connections: 2, expect: '"type":"image"' },
    { name: 'REST image 8 MiB', ...get(gateway, '/api/bench/image?mib=8'), connections: 1 },
    { name: 'MCP image 8 MiB', ...post(gateway, '/api/mcp', toolCall('BenchController_getLargeImage', { query: { mib: '8' } })), connections: 1, expect: '"type":"image"' },
    { name: 'MCP image 8 MiB (2026-07-28)', ...post(gateway, '/api/mcp', toolCall('BenchController_getLargeImage', { query: { mib: '8' } }, '2026')), connections: 1, expect: '"type":"image"' },
  ];
}

async function checkAnswer(scenario) {
  const response = await fetch(scenario.server.baseURL + scenario.path, scenario.request);
  const text = await response.text();
  if (!response.ok || (scenario.expect && !text.includes(scenario.expect))) {
    throw new Error(`${scenario.name}: unexpected answer ${response.status} ${text.slice(0, 300)}`);
  }
}

/**
 * One bounded load run, with the `Accept-Encoding` of `encoding` (none: what autocannon sends by itself); samples the
 * server's RSS every 50 ms and counts its CPU time per request.
 */
async function load(scenario, seconds, encoding) {
  const pid = scenario.server.pid;
  const start = residentBytes(pid);
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 50);
  const cpuBefore = cpuMs(pid);
  const headers = { ...scenario.request.headers, ...(encoding ? { 'accept-encoding': encoding } : {}) };
  const result = await autocannon({
    url: scenario.server.baseURL + scenario.path,
    ...scenario.request,
    headers,
    connections: scenario.connections ?? CONNECTIONS,
    duration: seconds,
  });
  const cpu = cpuMs(pid) - cpuBefore;
  clearInterval(sampler);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerSecond: result.throughput.average,
    bytesPerRequest: result.throughput.total / Math.max(1, result.requests.total),
    cpuMsPerRequest: cpu / Math.max(1, result.requests.total),
    errors: result.errors + result.timeouts + result.non2xx,
    start,
    peak,
  };
}

/** The `p`-th percentile of `values` (nearest rank). */
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

/** `times` sequential calls of `call` (the i-th given i): each one's ms, and `server`'s CPU per call. */
async function sequential(server, call, times) {
  const ms = [];
  const cpuBefore = cpuMs(server.pid);
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await call(i);
    ms.push(performance.now() - started);
  }
  return { ms, cpu: (cpuMs(server.pid) - cpuBefore) / times };
}

/** One whole request with node:http (undici's fetch is slow to collect some multi-megabyte bodies); resolves to ms. */
function timedRequest(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(url, { method, headers }, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve(performance.now() - started));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Single-request latency of one whole download, alternating the requests given (A B A B …); medians in ms. Not
 * autocannon: its parser is slow on multi-megabyte bodies and would blur exactly what this measures.
 */
async function downloadLatency(requests, times) {
  const runs = requests.map(({ server, path: urlPath, request }) => () => timedRequest(server.baseURL + urlPath, request));
  return Object.values(await alternatingMedians(runs, times));
}

/** Runs each of `runs` (an object or array of async functions) `times`, alternating (A B C … A B C …); median ms of each. */
async function alternatingMedians(runs, times) {
  const samples = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
  for (let i = 0; i < times; i++) {
    for (const [name, run] of Object.entries(runs)) {
      const started = performance.now();
      await run();
      samples[name].push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

/** An official MCP client connected to `baseURL` + `path`: SDK v2 pinned to 2026-07-28, or SDK v1 (a 2025-era session). */
async function officialClient(baseURL, version, path = '/api/mcp') {
  const url = new URL(path, baseURL);
  const client =
    version === 2
      ? new ClientV2({ name: 'bench-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
      : new ClientV1({ name: 'bench-v1', version: '1.0.0' });
  await client.connect(version === 2 ? new TransportV2(url) : new TransportV1(url));
  return client;
}

/**
 * Time to the last byte of one `mib` MiB image call, per client, as users call it: the raw node:http client with and
 * without Accept-Encoding, Node's fetch, and the official SDK clients (v2: 2026-07-28; v1: a 2025 session), each
 * connected once beforehand. Alternates the clients (A B C … A B C …); medians in ms.
 */
async function mediaLatency(gateway, mib, times) {
  const arguments_ = { query: { mib: String(mib) } };
  const restUrl = `${gateway.baseURL}/api/bench/image?mib=${mib}`;
  const mcpUrl = `${gateway.baseURL}/api/mcp`;
  const call = (era) => toolCall('BenchController_getLargeImage', arguments_, era);
  const gzip = (request) => ({ ...request, headers: { ...request.headers, 'accept-encoding': CLIENT_ENCODINGS } });
  const v2 = await officialClient(gateway.baseURL, 2);
  const v1 = await officialClient(gateway.baseURL, 1);
  const floorUrl = `${gateway.baseURL}/api/bench-floor/mcp`;
  const v2OnFloor = await officialClient(gateway.baseURL, 2, '/api/bench-floor/mcp');
  const viaClient = (client) => async () => {
    const result = await client.callTool({ name: 'BenchController_getLargeImage', arguments: arguments_ });
    if (result.content?.[0]?.type !== 'image') throw new Error(`media call: unexpected result ${JSON.stringify(result).slice(0, 200)}`);
  };
  const clients = {
    'REST, node:http': () => timedRequest(restUrl),
    'REST, node:http asking gzip': () => timedRequest(restUrl, gzip({})),
    'REST, fetch': async () => void (await (await fetch(restUrl)).arrayBuffer()),
    'MCP 2026-07-28, node:http': () => timedRequest(mcpUrl, call('2026')),
    'MCP 2026-07-28, node:http asking gzip': () => timedRequest(mcpUrl, gzip(call('2026'))),
    'MCP 2025 (SSE reply), node:http asking gzip': () => timedRequest(mcpUrl, gzip(call('2025'))),
    'MCP, official v2 client (2026-07-28)': viaClient(v2),
    'MCP, official v1 client (2025 session)': viaClient(v1),
    'MCP floor (bare mcp-handler) 2026-07-28, node:http': () => timedRequest(floorUrl, call('2026')),
    'MCP floor (bare mcp-handler) 2026-07-28, node:http asking gzip (Next.js gzips it)': () => timedRequest(floorUrl, gzip(call('2026'))),
    'MCP floor (bare mcp-handler), official v2 client': viaClient(v2OnFloor),
  };
  try {
    return await alternatingMedians(clients, times);
  } finally {
    await Promise.all([v2.close(), v1.close(), v2OnFloor.close()]);
  }
}

const IMPORT_ROWS = 10_000;
const IMPORT_RUNS = 3;

/** A CSV of `rows` tasks like real ones: quoted descriptions with commas, every column, some assignees. */
function importCsv(rows) {
  const lines = Array.from({ length: rows }, (_, index) => {
    const status = ['todo', 'in_progress', 'done'][index % 3];
    return `Imported task ${index + 1},"Details of task ${index + 1}, from the bench",${status},${index % 4 ? '' : (index % 3) + 1}`;
  });
  return ['title,description,status,assigneeId', ...lines, ''].join('\n');
}

/** Runs an admin statement on the test PostgreSQL cluster (TEST_DATABASE_URL). */
async function onTestCluster(sql) {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(sql).finally(() => admin.end());
}

/** A fresh database on the test PostgreSQL cluster, for a server of its own, and how to drop it. */
async function benchPostgres() {
  const name = `gateway_bench_${process.pid}`;
  await onTestCluster(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => onTestCluster(`DROP DATABASE ${name} WITH (FORCE)`) };
}

/**
 * Rows per second of `POST /api/tasks/import` with IMPORT_ROWS rows of CSV text (parsed, every row checked, one
 * transaction), on a server of its own with `env`: a warm-up, then IMPORT_RUNS timed runs; [min, max].
 */
async function importRate(port, env) {
  const server = await startServer(port, env);
  const body = JSON.stringify({ csv: importCsv(IMPORT_ROWS) });
  const rates = [];
  try {
    for (let run = 0; run <= IMPORT_RUNS; run++) {
      const started = performance.now();
      const response = await fetch(`${server.baseURL}/api/tasks/import`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      const result = await response.json();
      if (result.imported !== IMPORT_ROWS) throw new Error(`import: unexpected answer ${response.status} ${JSON.stringify(result).slice(0, 300)}`);
      if (run > 0) rates.push(IMPORT_ROWS / ((performance.now() - started) / 1000));
    }
  } finally {
    await server.stop();
  }
  return { min: Math.min(...rates), max: Math.max(...rates), bodyBytes: Buffer.byteLength(body) };
}

/** The import figures, as Markdown lines: SQLite always, PostgreSQL when the bench has a cluster (TEST_DATABASE_URL). */
async function importLines(base) {
  const sqlite = await importRate(base + 3, {});
  let postgres;
  if (process.env.TEST_DATABASE_URL) {
    const database = await benchPostgres();
    postgres = await importRate(base + 4, { DATABASE_URL: database.url }).finally(database.drop);
  }
  const range = ({ min, max }) => `${Math.round(min).toLocaleString('en-US')}–${Math.round(max).toLocaleString('en-US')}`;
  return [
    `Import of ${IMPORT_ROWS.toLocaleString('en-US')} rows (POST /api/tasks/import with ${(sqlite.bodyBytes / MIB).toFixed(2)} MiB of CSV text: ` +
      `parsed, every row checked, one transaction), min–max of ${IMPORT_RUNS} runs after a warm-up:`,
    '',
    '| Store | rows per second |',
    '| --- | ---: |',
    `| SQLite (synchronous = FULL) | ${range(sqlite)} |`,
    `| PostgreSQL (the test cluster: fsync off) | ${postgres ? range(postgres) : 'not measured (no TEST_DATABASE_URL)'} |`,
  ];
}

function machine() {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** Prints `lines` (and writes them to BENCH_OUT when set). */
function report(lines) {
  const output = lines.join('\n');
  console.log(output);
  if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, `${output}\n`);
}

/** What `taskCost` measured, as one Markdown line. */
function taskCostLine(cost) {
  return (
    `Cost of a task (sequential, median of 30, a one-step count; polls every ${POLL_MS} ms): MCP direct call ${cost.directMs.toFixed(1)} ms, ` +
    `as a task (create + ${cost.polls} tasks/get to the result) ${cost.taskMs.toFixed(1)} ms (${(cost.taskMs / cost.directMs).toFixed(2)} ×); ` +
    `REST call ${cost.restMs.toFixed(1)} ms, as a job (202 + GET polls) ${cost.jobMs.toFixed(1)} ms (${(cost.jobMs / cost.restMs).toFixed(2)} ×).`
  );
}

/** The cost of a task and of a REST job alone (`--only tasks`): a quick look while working on long work. */
async function tasksOnly(base, env) {
  const gateway = await startServer(base, env);
  try {
    return [taskCostLine(await taskCost(gateway, 30))];
  } finally {
    await gateway.stop();
  }
}

/** The media latencies alone (`--only media`), as Markdown lines: a quick look while working on the media path. */
async function mediaOnly(base, env) {
  const gateway = await startServer(base, env);
  try {
    const lines = [];
    for (const mib of [1, 8]) {
      lines.push('', `${mib} MiB image, time to the last byte (ms, median of 10):`, '');
      for (const [client, ms] of Object.entries(await mediaLatency(gateway, mib, 10))) lines.push(`- ${client}: ${fixed(ms, 1)}`);
    }
    return lines;
  } finally {
    await gateway.stop();
  }
}

/** The toolsets of the product's own 20 tools (the test build adds FixtureController's): the small catalogue. */
const PRODUCT_TOOLSETS = 'UserController,TaskController,BoardController,MediaController,TextController,AnnotatedController,standalone';

/**
 * Toolsets and tool search at three sizes (`--only catalogue`): the product's 20 tools (a selection of the test build),
 * and the test build with 200 and 1,000 generated procedures (GATEWAY_CATALOGUE_PROCEDURES). For each: the bytes of
 * tools/list on each surface, search_tools' latency (sequential, p50/p95) and server CPU, call_tool ÷ the direct call
 * (CPU and req/s under load, alternating A B per round); with 1,000, how well the search ranks the product's tools.
 */
async function catalogueLines(base, env) {
  const { SEARCH_QUALITY_CASES } = await import('../src/testing/catalogue/search-quality.ts');
  const { HELD_OUT_SEARCH_CASES } = await import('../src/testing/catalogue/held-out-search-cases.ts');
  const qualitySets = { 'the tuning set': SEARCH_QUALITY_CASES, 'the held-out set': HELD_OUT_SEARCH_CASES };
  const sizes = [
    { procedures: 0, selection: `toolsets=${PRODUCT_TOOLSETS}` },
    { procedures: 200, selection: '' },
    { procedures: 1000, selection: '' },
  ];
  const user = { params: { id: 1 } };
  const lines = [
    '| Tools | tools/list bytes: all | search | default (surface) | search_tools p50 / p95 ms | search_tools CPU ms (a direct getUser in the same loop) | call_tool ÷ direct, CPU per request [min–max] | req/s [min–max] |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const quality = [];
  let largest = 0;
  for (const [index, { procedures, selection }] of sizes.entries()) {
    const server = await startServer(base + 20 + index, { ...env, GATEWAY_CATALOGUE_PROCEDURES: String(procedures) });
    try {
      const endpoint = (query) => `/api/mcp?${[selection, query].filter(Boolean).join('&')}`;
      const listing = async (query) => {
        const text = await (await fetch(server.baseURL + endpoint(query), mcpRequest('tools/list', {}, '2026'))).text();
        return { bytes: Buffer.byteLength(text), tools: JSON.parse(text).result.tools.length };
      };
      const [all, searchSurface, byDefault] = [await listing('tools=all'), await listing('tools=search'), await listing('')];
      largest = Math.max(largest, all.tools);
      const search = (query, limit = 5) => resultOf(server, toolCall('search_tools', { query, limit }, '2026'), endpoint(''));
      const getUser = () => resultOf(server, toolCall('UserController_getUser', user, '2026'), endpoint(''));
      const request = (i) => SEARCH_QUALITY_CASES[i % SEARCH_QUALITY_CASES.length].query;
      await sequential(server, (i) => search(request(i)), 20); // warm-up (and the index is built on the first search)
      await sequential(server, getUser, 20);
      // Alternating halves, so a drift of the machine hits both alike: a sequential call costs more CPU than one under load.
      const searches = { ms: [], cpu: [] };
      const directs = { ms: [], cpu: [] };
      for (let half = 0; half < 2; half++) {
        for (const [into, call] of [[searches, (i) => search(request(i))], [directs, getUser]]) {
          const { ms, cpu } = await sequential(server, call, 150);
          into.ms.push(...ms);
          into.cpu.push(cpu);
        }
      }
      const times = searches.ms;
      const searchCpu = median(searches.cpu);
      const directCpu = median(directs.cpu);
      const direct = { name: 'direct', server, path: endpoint(''), request: toolCall('UserController_getUser', user, '2026') };
      const through = { name: 'call_tool', server, path: endpoint(''), request: toolCall('call_tool', { name: 'UserController_getUser', arguments: user }, '2026') };
      for (const scenario of [direct, through]) {
        await checkAnswer({ ...scenario, expect: '"Ada Lovelace"' });
        await load(scenario, 2, CLIENT_ENCODINGS);
      }
      const cpuRatios = [];
      const rpsRatios = [];
      // A B, then B A: neither always runs first (on this VM the second run of a pair tends to cost less).
      for (let round = 0; round < 2 * ROUNDS; round++) {
        const [first, second] = round % 2 ? [through, direct] : [direct, through];
        const runs = { [first.name]: await load(first, SECONDS, CLIENT_ENCODINGS), [second.name]: await load(second, SECONDS, CLIENT_ENCODINGS) };
        const [a, b] = [runs.direct, runs.call_tool];
        cpuRatios.push(b.cpuMsPerRequest / a.cpuMsPerRequest);
        rpsRatios.push(b.rps / a.rps);
      }
      const range = (values) => `${fixed(median(values))} [${fixed(Math.min(...values))}–${fixed(Math.max(...values))}]`;
      lines.push(
        `| ${all.tools} | ${all.bytes} | ${searchSurface.bytes} (${searchSurface.tools} tools) | ${byDefault.bytes} (${byDefault.tools === all.tools ? 'all' : 'search'}) | ` +
          `${fixed(percentile(times, 50), 1)} / ${fixed(percentile(times, 95), 1)} | ${fixed(searchCpu)} (${fixed(directCpu)}) | ${range(cpuRatios)} | ${range(rpsRatios)} |`,
      );
      if (procedures !== 1000) continue;
      for (const [set, cases] of Object.entries(qualitySets)) {
        for (const { query, expected } of cases) {
          const names = (await search(query, 3)).structuredContent.tools.map((hit) => hit.name);
          quality.push({ set, query, expected, rank: names.indexOf(expected) + 1, first: names[0] });
        }
      }
    } finally {
      await server.stop();
    }
  }
  lines.push('', `Search quality against the ${largest}-tool catalogue: requests in words for the product's own tools.`, '');
  lines.push('| Requests | first | top 3 |', '| --- | ---: | ---: |');
  for (const set of Object.keys(qualitySets)) {
    const asked = quality.filter((entry) => entry.set === set);
    const first = asked.filter(({ rank }) => rank === 1).length;
    const top3 = asked.filter(({ rank }) => rank >= 1).length;
    lines.push(`| ${set} (${asked.length}) | ${first} (${fixed((100 * first) / asked.length, 0)} %) | ${top3} (${fixed((100 * top3) / asked.length, 0)} %) |`);
  }
  const misses = quality.filter(({ rank }) => rank !== 1);
  if (misses.length) {
    lines.push('', '| Request | expected | rank (0: not in the top 3) | first hit |', '| --- | --- | ---: | --- |');
    for (const { query, expected, rank, first } of misses) lines.push(`| ${query} | ${expected} | ${rank} | ${first} |`);
  }
  return lines;
}

/** The program of the code-mode figures: ten inner getUser calls, the work of ten direct tools/calls. */
const TEN_GET_USERS = "for (let i = 1; i <= 10; i++) await tools.UserController_getUser({ params: { id: 1 } }); return 'ok'";
const CODE_SURFACE = '/api/mcp?tools=code';
const BENCH_USER = { params: { id: 1 } };

/** One `execute` of `code` on the code surface: its MCP result (isError, with the error's text, when the program failed). */
const execute = (server, code, era = '2026') => resultOf(server, toolCall('execute', { code }, era), CODE_SURFACE);

/** An `execute` that must succeed after `calls` inner calls, each ok: its structuredContent. */
async function executed(server, code, era, calls) {
  const result = await execute(server, code, era);
  const answer = result.structuredContent;
  if (result.isError || answer?.calls.length !== calls || !answer.calls.every((call) => call.ok)) {
    throw new Error(`execute: unexpected answer ${JSON.stringify(result).slice(0, 300)}`);
  }
  return answer;
}

/** Ten direct tools/calls of getUser, one after the other: what a client without code mode does. */
async function tenDirectCalls(server, era) {
  for (let i = 0; i < 10; i++) await resultOf(server, toolCall('UserController_getUser', BENCH_USER, era));
}

/** The server's RSS right after a full garbage collection of its main thread (the test build's GET /api/fixture/memory). */
const rssAfterGc = async (server) => (await (await fetch(`${server.baseURL}/api/fixture/memory`)).json()).rss;

/**
 * Runs each of `sides` (name → async function) in turn, then again in the reverse order (A B … B A), so that none
 * always runs first (on this VM the second run of a pair tends to cost less); each side's two results.
 */
async function bothOrders(sides) {
  const names = Object.keys(sides);
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of [...names, ...names.toReversed()]) results[name].push(await sides[name]());
  return results;
}

/** `values` as `min–max` with `digits` decimals. */
const span = (values, digits = 2) => `${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)}`;

/** `count` copies of `job` at once on `server`: the wall ms, the server's CPU ms, its RSS before (after a GC) and its peak. */
async function burst(server, job, count) {
  const start = await rssAfterGc(server);
  let peak = residentBytes(server.pid);
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(server.pid))), 20);
  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, () => job()));
  const wallMs = performance.now() - started;
  const cpu = cpuMs(server.pid) - cpuBefore;
  clearInterval(sampler);
  return { wallMs, cpu, start, peak: Math.max(peak, residentBytes(server.pid)) };
}

/** Polls `ready` every 50 ms until it holds, at most `seconds`. */
async function until(ready, seconds, what) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`waited ${seconds} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Code mode (`--only code`, issue 25): one `execute` of ten inner getUser calls against ten direct tools/calls (CPU,
 * wall), the sandbox's start and memory, 20 `execute`s at once against 200 direct calls at the same concurrency, and
 * REST latency on an instance while an `execute` loops forever. CPU is the server process's, worker threads included.
 */
async function codeLines(base, env) {
  const UNITS = 20;
  const CONCURRENT = 20;
  const LOOP_WALL_MS = 10_000;
  const server = await startServer(base + 30, env);
  const wide = await startServer(base + 31, { ...env, CODE_MODE_WORKERS: String(CONCURRENT) });
  const looping = await startServer(base + 32, { ...env, CODE_MODE_WALL_MS: String(LOOP_WALL_MS) });
  const lines = [];
  try {
    // 1. One execute of ten inner calls against ten direct calls, sequential, both framings.
    const eras = { '2026-07-28': '2026', '2025 (SSE)': '2025' };
    const pairs = {};
    for (const era of Object.values(eras)) {
      await sequential(server, () => executed(server, TEN_GET_USERS, era, 10), UNITS); // warm-up (the first starts a worker)
      await sequential(server, () => tenDirectCalls(server, era), UNITS);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, era] of Object.entries(eras)) {
        const { execute: viaCode, direct } = await bothOrders({
          execute: () => sequential(server, () => executed(server, TEN_GET_USERS, era, 10), UNITS),
          direct: () => sequential(server, () => tenDirectCalls(server, era), UNITS),
        });
        const figures = (legs) => ({ cpu: median(legs.map((leg) => leg.cpu)), ms: median(legs.flatMap((leg) => leg.ms)) });
        (pairs[label] ??= []).push({ code: figures(viaCode), direct: figures(direct) });
      }
    }
    lines.push(
      `One \`execute\` making 10 inner \`UserController_getUser\` calls against 10 direct \`tools/call\`s of it, ` +
        `sequential (${UNITS} of each, A B then B A, per round), server CPU (user + system of the process, worker threads included, /proc) ` +
        `and wall time per unit; min–max over ${ROUNDS} rounds:`,
      '',
      '| Framing | execute: CPU ms | 10 direct: CPU ms | CPU execute ÷ 10 direct | execute: wall p50 ms | 10 direct: wall p50 ms | wall ÷ |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...Object.entries(pairs).map(([label, rounds]) => {
        const of = (side, figure) => rounds.map((round) => round[side][figure]);
        const ratio = (figure) => rounds.map((round) => round.code[figure] / round.direct[figure]);
        return `| ${label} | ${span(of('code', 'cpu'), 1)} | ${span(of('direct', 'cpu'), 1)} | ${span(ratio('cpu'))} | ${span(of('code', 'ms'), 1)} | ${span(of('direct', 'ms'), 1)} | ${span(ratio('ms'))} |`;
      }),
    );

    // 2. Sandbox start and memory: a fresh server per round (its pool starts empty: the first execute starts a worker).
    const BLOCKED = 'await tools.FixtureController_countSlowly({ body: { to: 1, stepMs: 2000, label: "bench-code" } }); return 1';
    const LARGE_HEAP_MIB = 32;
    const LARGE = `const text = 'x'.repeat(${LARGE_HEAP_MIB} * 1024 * 1024); return text.length`;
    const STRINGS = "const keep = []; while (true) keep.push('y'.repeat(1000))";
    const starts = [];
    for (let round = 0; round < ROUNDS; round++) {
      const fresh = await startServer(base + 40 + round, env);
      try {
        const workers = Number(env.CODE_MODE_WORKERS ?? 4);
        await resultOf(fresh, toolCall('UserController_getUser', BENCH_USER, '2026')); // the tools/call path is warm
        const none = await rssAfterGc(fresh);
        let started = performance.now();
        await executed(fresh, 'return 1', '2026', 0);
        const coldMs = performance.now() - started;
        const one = await rssAfterGc(fresh);
        const { trivial, direct } = await bothOrders({
          trivial: () => sequential(fresh, () => executed(fresh, 'return 1', '2026', 0), 15),
          direct: () => sequential(fresh, () => resultOf(fresh, toolCall('UserController_getUser', BENCH_USER, '2026')), 15),
        });
        // Programs blocked awaiting a slow tool, one per worker: all workers started, each holding a live program.
        const counting = async () => (await (await fetch(`${fresh.baseURL}/api/fixture/counting?label=bench-code`)).json()).running;
        const blockedRss = [];
        for (let time = 0; time < 2; time++) {
          const programs = Array.from({ length: workers }, () => executed(fresh, BLOCKED, '2026', 1));
          await until(async () => (await counting()) === workers, 10, `${workers} blocked programs`);
          blockedRss.push(await rssAfterGc(fresh));
          await Promise.all(programs);
        }
        const idle = await rssAfterGc(fresh);
        // One program that fills LARGE_HEAP_MIB of its heap: what its worker's RSS keeps afterwards.
        started = performance.now();
        await executed(fresh, LARGE, '2026', 0);
        const largeMs = performance.now() - started;
        const afterLarge = await rssAfterGc(fresh);
        const again = [];
        for (let i = 0; i < workers; i++) again.push(executed(fresh, LARGE, '2026', 0));
        await Promise.all(again);
        const afterLargeAll = await rssAfterGc(fresh);
        // A program that keeps allocating small strings until its memory limit stops it.
        let stringsEnd;
        const strings = await burst(fresh, async () => (stringsEnd = await execute(fresh, STRINGS)), 1);
        const stringsText = stringsEnd.content?.[0]?.text ?? '';
        if (!stringsEnd.isError || !stringsText.includes('CODE_MODE_MEMORY_BYTES')) throw new Error(`the string program: ${stringsText.slice(0, 300)}`);
        const afterStrings = await rssAfterGc(fresh);
        starts.push({
          coldMs,
          warmMs: median([...trivial[0].ms, ...trivial[1].ms]),
          warmCpu: median(trivial.map((leg) => leg.cpu)),
          directMs: median([...direct[0].ms, ...direct[1].ms]),
          directCpu: median(direct.map((leg) => leg.cpu)),
          firstWorkerMiB: (one - none) / MIB,
          perWorkerMiB: (idle - none) / workers / MIB,
          firstBlockedPerProgramMiB: (blockedRss[0] - one) / workers / MIB,
          blockedPerProgramMiB: (blockedRss[1] - idle) / workers / MIB,
          largeMs,
          largeKeptMiB: (afterLarge - idle) / MIB,
          largeKeptAllMiB: (afterLargeAll - idle) / MIB,
          stringsMs: strings.wallMs,
          stringsPeakMiB: (strings.peak - strings.start) / MIB,
          stringsKeptMiB: (afterStrings - afterLargeAll) / MIB,
          stringsError: stringsText.split('\n')[0],
          noneMiB: none / MIB,
          allMiB: afterLargeAll / MIB,
          workers,
        });
      } finally {
        await fresh.stop();
      }
    }
    const s = (figure, digits = 1) => span(starts.map((start) => start[figure]), digits);
    const workers = starts[0].workers;
    lines.push(
      '',
      `Sandbox start and memory, a fresh server per round (${ROUNDS}); RSS read after a full GC of the main thread (GET /api/fixture/memory), min–max:`,
      '',
      '| Figure | min–max |',
      '| --- | ---: |',
      `| first \`execute\` of \`return 1\` after start (starts the worker: a thread, QuickJS's wasm) | ${s('coldMs')} ms |`,
      `| a warm \`execute\` of \`return 1\` (p50 of 30; a new QuickJS runtime and context per program) | ${s('warmMs')} ms, CPU ${s('warmCpu')} ms |`,
      `| a direct \`tools/call\` getUser beside it (p50 of 30) | ${s('directMs')} ms, CPU ${s('directCpu')} ms |`,
      `| RSS with no worker | ${s('noneMiB', 0)} MiB |`,
      `| RSS of the first worker (after one trivial program) | +${s('firstWorkerMiB')} MiB |`,
      `| RSS per worker, all ${workers} started (CODE_MODE_WORKERS), idle | +${s('perWorkerMiB')} MiB |`,
      `| RSS per program while ${workers} programs are blocked awaiting a slow tool, the first time (${workers - 1} workers start for them) | +${s('firstBlockedPerProgramMiB')} MiB |`,
      `| the same, the second time (every worker started): a live program's own memory | ${s('blockedPerProgramMiB', 2)} MiB |`,
      `| one program filling ${LARGE_HEAP_MIB} MiB of its heap: wall | ${s('largeMs', 0)} ms |`,
      `| RSS change after it, against the idle workers before (one such program / one on each of the ${workers} workers) | ${s('largeKeptMiB', 0)} / ${s('largeKeptAllMiB', 0)} MiB |`,
      `| RSS at the end (${workers} workers, each after a ${LARGE_HEAP_MIB} MiB program) | ${s('allMiB', 0)} MiB |`,
      `| \`${STRINGS}\` (CODE_MODE_MEMORY_BYTES ${fixed(Number(env.CODE_MODE_MEMORY_BYTES ?? 64 * MIB) / MIB, 0)} MiB): wall, peak RSS growth, RSS change after | ${s('stringsMs', 0)} ms, +${s('stringsPeakMiB', 0)} MiB, ${s('stringsKeptMiB', 0)} MiB |`,
      '',
      `It ends with: "${starts[0].stringsError}".`,
    );

    // 3. 20 programs at once against 200 direct calls at the same concurrency (20 clients, 10 calls each).
    const sides = {
      [`${CONCURRENT} × execute (10 inner getUser), ${workers} workers`]: () => burst(server, () => executed(server, TEN_GET_USERS, '2026', 10), CONCURRENT),
      [`${CONCURRENT} × execute (10 inner getUser), CODE_MODE_WORKERS=${CONCURRENT}`]: () =>
        burst(wide, () => executed(wide, TEN_GET_USERS, '2026', 10), CONCURRENT),
      [`${CONCURRENT} clients × 10 direct tools/call getUser`]: () => burst(server, () => tenDirectCalls(server, '2026'), CONCURRENT),
    };
    for (const side of Object.values(sides)) await side(); // warm-up: every worker started
    const bursts = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, legs] of Object.entries(await bothOrders(sides))) {
        bursts[name].push({
          wallMs: median(legs.map((leg) => leg.wallMs)),
          cpu: median(legs.map((leg) => leg.cpu)),
          growthMiB: Math.max(...legs.map((leg) => leg.peak - leg.start)) / MIB,
          peakMiB: Math.max(...legs.map((leg) => leg.peak)) / MIB,
        });
      }
    }
    const [directName] = Object.keys(sides).slice(-1);
    lines.push(
      '',
      `${CONCURRENT} at once, 2026-07-28 (each figure per burst of ${CONCURRENT}; 2 bursts per side per round, A B C C B A; RSS sampled every 20 ms), min–max over ${ROUNDS} rounds:`,
      '',
      '| Burst | wall ms | server CPU ms | CPU ÷ direct | peak RSS MiB (change from the RSS after a GC before it) |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...Object.entries(bursts).map(([name, rounds]) => {
        const ratios = rounds.map((round, i) => round.cpu / bursts[directName][i].cpu);
        const of = (figure, digits = 0) => span(rounds.map((round) => round[figure]), digits);
        return `| ${name} | ${of('wallMs')} | ${of('cpu')} | ${span(ratios)} | ${of('peakMiB')} (${of('growthMiB')}) |`;
      }),
    );

    // 4. REST latency on an instance while one execute loops forever (until its wall time: CODE_MODE_WALL_MS).
    const rest = { name: 'REST GET /api/users/1', server: looping, path: '/api/users/1', request: { method: 'GET' }, expect: '"Ada Lovelace"' };
    await checkAnswer(rest);
    await load(rest, 2);
    await executed(looping, 'return 1', '2026', 0); // its worker started
    /** REST meanwhile: 300 sequential GETs (p50, p95), then autocannon for 3 s; the server's CPU per second over both. */
    const restWindow = async () => {
      const cpuBefore = cpuMs(looping.pid);
      const started = performance.now();
      const { ms } = await sequential(looping, () => timedRequest(looping.baseURL + rest.path), 300);
      const loaded = await load(rest, SECONDS);
      return { p50: percentile(ms, 50), p95: percentile(ms, 95), rps: loaded.rps, loadP99: loaded.p99, cpuPerSecond: (cpuMs(looping.pid) - cpuBefore) / ((performance.now() - started) / 1000) };
    };
    const endings = [];
    const loopSides = {
      quiet: restWindow,
      loop: async () => {
        const started = performance.now();
        const ended = execute(looping, 'while (true) {}').then((result) => {
          endings.push({ seconds: (performance.now() - started) / 1000, isError: result.isError, text: result.content?.[0]?.text ?? '' });
        });
        // Running once the server computes (it is idle otherwise): ≥ 70 ms of CPU in 100 ms.
        await until(async () => {
          const before = cpuMs(looping.pid);
          await new Promise((resolve) => setTimeout(resolve, 100));
          return cpuMs(looping.pid) - before >= 70;
        }, 5, 'the looping program');
        const window = await restWindow();
        await ended;
        return window;
      },
    };
    const loopRounds = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { quiet, loop } = await bothOrders(loopSides);
      const of = (legs, figure) => median(legs.map((leg) => leg[figure]));
      loopRounds.push(Object.fromEntries(['p50', 'p95', 'rps', 'loadP99', 'cpuPerSecond'].map((figure) => [figure, { quiet: of(quiet, figure), loop: of(loop, figure) }])));
    }
    const wrong = endings.find((ending) => !ending.isError || !ending.text.includes('CODE_MODE_WALL_MS'));
    if (wrong) throw new Error(`the endless program ended without the wall-time error: ${JSON.stringify(wrong).slice(0, 300)}`);
    const row = (label, figure, digits = 1) => {
      const [quiet, loop] = ['quiet', 'loop'].map((side) => loopRounds.map((round) => round[figure][side]));
      return `| ${label} | ${span(quiet, digits)} | ${span(loop, digits)} | ${span(loopRounds.map((round) => round[figure].loop / round[figure].quiet))} |`;
    };
    lines.push(
      '',
      `REST \`GET /api/users/1\` on one instance, alone and while an \`execute\` of \`while (true) {}\` runs (CODE_MODE_WALL_MS=${LOOP_WALL_MS}); ` +
        `300 sequential requests, then autocannon (${CONNECTIONS} connections, ${SECONDS} s); quiet and loop A B B A per round, min–max over ${ROUNDS} rounds:`,
      '',
      '| Figure | alone | while a program loops | loop ÷ alone |',
      '| --- | ---: | ---: | ---: |',
      row('sequential p50 ms', 'p50', 2),
      row('sequential p95 ms', 'p95', 2),
      row(`req/s (autocannon, ${CONNECTIONS} connections)`, 'rps', 0),
      row('p99 ms under that load', 'loadP99', 0),
      row('server CPU ms per second of wall time', 'cpuPerSecond', 0),
      '',
      `The endless program ended after ${span(endings.map((ending) => ending.seconds))} s (${endings.length} runs), each answering isError: "${endings[0].text.split('\n')[0]}".`,
    );
  } finally {
    await Promise.all([server.stop(), wide.stop(), looping.stop()]);
  }
  return lines;
}

/** `value` as a figure with `digits` decimals. */
const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

async function main() {
  const started = Date.now();
  // base … base+2 serve, base+3 and base+4 import (SQLite, PostgreSQL), base+5 … base+13 cold starts, base+20 … base+22
  // the catalogue, base+30 … base+32 and base+40 … (one a round) code mode, base+50 … base+53 resources, base+60 the
  // board app, base+70 and base+71 the profile, base+80 … base+87 the targets, base+90 and base+91 the hot path, base+95
  // the streams, base+97 … base+99 the adoption, base+93 and base+94 the result budget, base+100 and base+101 the cache
  // hints, base+103 … base+105 HTTP+SSE
  const base = Number(process.env.BENCH_PORT) || 3290;
  const env = { GATEWAY_BENCHMARK: '1', MCP_MAX_MEDIA_BYTES: String(16 * MIB) };
  if (args.only === 'import') return report([`Machine: ${machine()}`, '', ...(await importLines(base))]);
  if (args.only === 'media') return report([`Machine: ${machine()}`, '', ...(await mediaOnly(base, env))]);
  if (args.only === 'tasks') return report([`Machine: ${machine()}`, '', ...(await tasksOnly(base, env))]);
  if (args.only === 'catalogue') return report([`Machine: ${machine()}`, '', ...(await catalogueLines(base, env))]);
  if (args.only === 'code') return report([`Machine: ${machine()}`, '', ...(await codeLines(base, env))]);
  if (args.only === 'profile') return report([`Machine: ${machine()}`, '', ...(await profileLines({ startServer }, base + 70, env, args.match))]);
  if (args.only === 'resources') {
    const helpers = { startServer, benchPostgres, percentile, cpuMs, residentBytes, median };
    return report([`Machine: ${machine()}`, '', ...(await resourceLines(helpers, base + 50, env, ROUNDS))]);
  }
  if (args.only === 'patches') return report([`Machine: ${machine()}`, '', ...(await patchLines())]);
  if (args.only === 'targets') {
    const helpers = { startServer, load, mcpRequest, timedRequest, median };
    return report([`Machine: ${machine()}`, '', ...(await targetLines(helpers, base + 80, env, { rounds: ROUNDS, seconds: SECONDS, against: args.against }))]);
  }
  if (args.only === 'hot-path') {
    const helpers = { startServer, load, mcpRequest, median };
    return report([`Machine: ${machine()}`, '', ...(await hotPathLines(helpers, base + 90, env, { rounds: ROUNDS, seconds: SECONDS, against: args.against }))]);
  }
  if (args.only === 'adoption') {
    const helpers = { startServer, load, mcpRequest, timedRequest, median };
    return report([`Machine: ${machine()}`, '', ...(await adoptionLines(helpers, base + 97, env, { rounds: ROUNDS, seconds: SECONDS }))]);
  }
  if (args.only === 'budget') {
    const helpers = { startServer, officialClient, cpuMs, median };
    return report([`Machine: ${machine()}`, '', ...(await budgetLines(helpers, base + 93, env, { rounds: ROUNDS }))]);
  }
  if (args.only === 'streams') {
    const helpers = { startServer, officialClient, mcpRequest, cpuMs, median };
    const options = { rounds: ROUNDS, items: args.items && Number(args.items), calls: args.calls && Number(args.calls) };
    return report([`Machine: ${machine()}`, '', ...(await streamLines(helpers, base + 95, env, options))]);
  }
  if (args.only === 'cache-hints') {
    const options = { turns: Number(args.turns ?? 20), turnSeconds: Number(args['turn-seconds'] ?? 15) };
    return report([`Machine: ${machine()}`, '', ...(await cacheHintLines({ startServer }, base + 100, env, options))]);
  }
  if (args.only === 'contract') return report([`Machine: ${machine()}`, '', ...contractLines({ median, span }, { rounds: ROUNDS })]);
  if (args.only === 'sse') {
    const helpers = { startServer, benchPostgres, cpuMs, residentBytes, median };
    return report([`Machine: ${machine()}`, '', ...(await sseLines(helpers, base + 103, env, { rounds: ROUNDS, seconds: SECONDS }))]);
  }
  if (args.only === 'board-app') {
    const start = (port) => startServer(port, env, firstRestAnswer);
    return report([`Machine: ${machine()}`, '', ...(await boardAppLines(start, base + 60, Number(args.window ?? 60)))]);
  }

  const coldStarts = { toolsList: [], rest: [], floor: [] };
  for (let i = 0; i < 3; i++) {
    for (const [kind, ready, offset] of [['toolsList', firstToolsList, 5], ['rest', firstRestAnswer, 8], ['floor', firstFloorAnswer, 11]]) {
      const server = await startServer(base + offset + i, env, ready);
      coldStarts[kind].push(server.coldStartMs);
      await server.stop();
    }
  }

  const gateway = await startServer(base, env);
  const small = await startServer(base + 1, env);
  const catalogue = await startServer(base + 2, { ...env, GATEWAY_BENCHMARK_TOOLS: '200' });
  const list = scenarios(gateway, small, catalogue, await confirmationLegs(gateway), await sessionHeaders(gateway)).filter(
    (scenario) => !args.match || args.match.split('|').some((text) => scenario.name.includes(text)),
  );
  const encodings = [['identity', undefined], ['gzip', CLIENT_ENCODINGS]];
  const runKey = (name, encoding) => `${name}\0${encoding}`;
  const runs = new Map(list.flatMap(({ name }) => encodings.map(([encoding]) => [runKey(name, encoding), []])));
  const extra = new Map();
  try {
    for (const scenario of list) {
      await checkAnswer(scenario);
      await load(scenario, 2); // warm-up, not counted: every scenario gets the same, so no server is warmer than another
    }
    // Rounds cycle through every scenario, each without and with Accept-Encoding back to back (A a B b … A a B b …),
    // so slow drifts of a noisy machine hit all alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of list) {
        for (const [encoding, header] of encodings) runs.get(runKey(scenario.name, encoding)).push(await load(scenario, SECONDS, header));
      }
    }
    if (!args.match) {
      const confirmationNames = ['MCP getTask (2026-07-28)', 'MCP deleteTask, 1st leg: input_required (2026-07-28)', 'MCP deleteTask, 2nd leg: retry, declined (2026-07-28)'];
      const [plainMs, askMs, retryMs] = await downloadLatency(confirmationNames.map((name) => list.find((scenario) => scenario.name === name)), 50);
      extra.set('confirmation', { plainMs, roundTripMs: askMs + retryMs });
      extra.set('task', await taskCost(gateway, 30));
      extra.set('media 1', await mediaLatency(gateway, 1, 15));
      extra.set('media 8', await mediaLatency(gateway, 8, 10));
    }
  } finally {
    await Promise.all([gateway.stop(), small.stop(), catalogue.stop()]);
  }

  // Per scenario and encoding: the medians of its rounds, and each round's figures (for ratios round by round).
  const summary = new Map(
    [...runs].map(([key, results]) => [
      key,
      {
        rounds: results,
        rps: median(results.map((r) => r.rps)),
        cpu: median(results.map((r) => r.cpuMsPerRequest)),
        p50: median(results.map((r) => r.p50)),
        p99: median(results.map((r) => r.p99)),
        kib: median(results.map((r) => r.bytesPerRequest)) / 1024,
        errors: results.reduce((sum, r) => sum + r.errors, 0),
        startMiB: median(results.map((r) => r.start)) / MIB,
        peakMiB: Math.max(...results.map((r) => r.peak)) / MIB,
        growthMiB: median(results.map((r) => r.peak - r.start)) / MIB,
      },
    ]),
  );
  const s = (name, encoding = 'identity') => summary.get(runKey(name, encoding));
  const lines = [
    `Machine: ${machine()}`,
    `Load: autocannon, ${CONNECTIONS} connections (media: 2 for 1 MiB, 1 for 8 MiB), ${SECONDS} s per run, ${ROUNDS} rounds; medians. ` +
      `Each scenario without Accept-Encoding (what autocannon sends) and with \`${CLIENT_ENCODINGS}\` (what browsers and Node's fetch send). ` +
      `CPU = the server's user + system time over a run ÷ its requests (/proc).`,
    '',
    '| Scenario | req/s | req/s gzip | CPU ms/req | CPU gzip | KiB/answer | KiB gzip | p50 ms | p99 ms | errors | RSS MiB: start → peak (growth) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...list.map(({ name }) => {
      const [plain, gzip] = [s(name), s(name, 'gzip')];
      return (
        `| ${name} | ${plain.rps.toFixed(0)} | ${gzip.rps.toFixed(0)} | ${fixed(plain.cpu)} | ${fixed(gzip.cpu)} | ${fixed(plain.kib, 1)} | ${fixed(gzip.kib, 1)} | ` +
        `${plain.p50} | ${plain.p99} | ${plain.errors + gzip.errors} | ${plain.startMiB.toFixed(0)} → ${plain.peakMiB.toFixed(0)} (+${plain.growthMiB.toFixed(0)}) |`
      );
    }),
  ];

  // Ratios: the median of the rounds' own ratios (each round's pair measured back to back), and their min–max.
  const ratioLines = ['', '| Ratio | median [min–max of rounds] | target |', '| --- | ---: | --- |'];
  const ratio = (label, values, target, ok) => {
    const shown = values.length > 1 ? `${fixed(median(values))} [${fixed(Math.min(...values))}–${fixed(Math.max(...values))}]` : fixed(values[0]);
    ratioLines.push(`| ${label} | ${shown} | ${target}${ok ? (ok(median(values)) ? ' ✓' : ' ✗') : ''} |`);
  };
  const has = (...names) => names.every((name) => s(name));
  /** Per round: `figure` of scenario `a` (encoding `ea`) ÷ that of `b` (encoding `eb`). */
  const perRound = (figure, [a, ea = 'identity'], [b, eb = 'identity']) => s(a, ea).rounds.map((r, i) => r[figure] / s(b, eb).rounds[i][figure]);
  const REST = 'REST GET /api/users/1';
  const MCP = 'MCP tools/call getUser (2026-07-28)';
  const MCP_2025 = 'MCP tools/call getUser (2025 framing)';
  const REST_FLOOR = 'REST floor: bare Next.js route, same JSON';
  const MCP_FLOOR = 'MCP floor: bare mcp-handler route (2026-07-28)';
  const MCP_FLOOR_2025 = 'MCP floor: bare mcp-handler route (2025 framing)';
  for (const name of [REST, MCP, MCP_2025].filter((name) => has(name))) {
    ratio(`${name}: CPU per request, gzip asked ÷ not`, perRound('cpuMsPerRequest', [name, 'gzip'], [name]), '≤ 1.05', (v) => v <= 1.05);
    ratio(`${name}: req/s, gzip asked ÷ not`, perRound('rps', [name, 'gzip'], [name]), '≥ 0.95', (v) => v >= 0.95);
  }
  for (const name of ['MCP tools/list, 209-tool server (2026-07-28)', 'REST GET /api/board (large JSON)'].filter((name) => has(name))) {
    const [plain, gzip] = [s(name), s(name, 'gzip')];
    ratioLines.push(
      `| ${name}: gzip saves ${fixed(plain.kib - gzip.kib, 1)} of ${fixed(plain.kib, 1)} KiB per answer, for ${fixed(gzip.cpu - plain.cpu)} ms of CPU | ` +
        `${fixed(gzip.kib / plain.kib)} of the bytes, ${fixed(gzip.cpu / plain.cpu)} × the CPU | (reported) |`,
    );
  }
  if (has(MCP, REST)) {
    ratio('MCP 2026-07-28 tools/call ÷ REST GET (req/s), real-client headers (gzip asked)', perRound('rps', [MCP, 'gzip'], [REST, 'gzip']), '≥ 0.8, or the floor', (v) => v >= 0.8);
  }
  if (has(MCP_FLOOR, REST_FLOOR)) {
    ratio('the floors: bare mcp-handler ÷ bare Next.js route (req/s), gzip asked', perRound('rps', [MCP_FLOOR, 'gzip'], [REST_FLOOR, 'gzip']), '(the floor of MCP ÷ REST)');
    ratio('gateway MCP 2026-07-28 ÷ its floor (req/s), gzip asked', perRound('rps', [MCP, 'gzip'], [MCP_FLOOR, 'gzip']), '≥ 0.95', (v) => v >= 0.95);
    ratio('gateway MCP 2026-07-28 ÷ its floor (CPU per request), gzip asked', perRound('cpuMsPerRequest', [MCP, 'gzip'], [MCP_FLOOR, 'gzip']), '≤ 1.05', (v) => v <= 1.05);
    ratio('gateway REST ÷ its floor (req/s), gzip asked', perRound('rps', [REST, 'gzip'], [REST_FLOOR, 'gzip']), '(reported)');
    ratio('gateway REST ÷ its floor (CPU per request), gzip asked', perRound('cpuMsPerRequest', [REST, 'gzip'], [REST_FLOOR, 'gzip']), '(reported)');
  }
  if (has(MCP_2025, MCP_FLOOR_2025)) {
    ratio('gateway MCP 2025 framing ÷ its floor (req/s)', perRound('rps', [MCP_2025], [MCP_FLOOR_2025]), '≥ 0.95', (v) => v >= 0.95);
  }
  if (has(MCP_2025, 'hand-written registerTool getUser')) {
    ratio('derived ÷ hand-written, guards alike (req/s)', perRound('rps', [MCP_2025], ['hand-written registerTool getUser']), '≥ 0.95', (v) => v >= 0.95);
  }
  if (has(MCP_2025, 'MCP tools/call getUser (2025 session)')) {
    ratio('2025 session ÷ stateless 2025 tools/call (req/s)', perRound('rps', ['MCP tools/call getUser (2025 session)'], [MCP_2025]), '(reported)');
  }
  if (has('MCP tools/call, 209-tool server', 'MCP tools/call, 9-tool server')) {
    ratio('tools/call 209 ÷ 9 tools (req/s)', perRound('rps', ['MCP tools/call, 209-tool server'], ['MCP tools/call, 9-tool server']), '≥ 0.9', (v) => v >= 0.9);
  }
  for (const era of ['', ' (2026-07-28)']) {
    const [large, few] = [`MCP tools/list, 209-tool server${era}`, `MCP tools/list, 9-tool server${era}`];
    if (has(large, few)) ratio(`tools/list 209 ÷ 9 tools (req/s)${era}`, perRound('rps', [large], [few]), '≥ 0.8', (v) => v >= 0.8);
  }
  const image8 = 'MCP image 8 MiB (2026-07-28)';
  if (has(image8)) ratio('8 MiB MCP 2026-07-28 peak RSS growth ÷ payload', s(image8).rounds.map((r) => (r.peak - r.start) / MIB / 8), '≤ 3', (v) => v <= 3);
  ratio('cold start to the first tools/list (ms, median of 3)', coldStarts.toolsList, '< 600', (v) => v < 600);
  ratio('cold start to the first REST answer (ms, median of 3)', coldStarts.rest, '(reported)');
  ratio('cold start to the first answer of the bare route: Next.js and the start-up, the floor (ms, median of 3)', coldStarts.floor, '(the floor)');

  for (const mib of [1, 8]) {
    const media = extra.get(`media ${mib}`);
    if (!media) continue;
    lines.push('', `${mib} MiB image, time to the last byte of one call, by client (median of ${mib === 8 ? 10 : 15}, alternating):`, '', '| Client | ms |', '| --- | ---: |');
    for (const [client, ms] of Object.entries(media)) lines.push(`| ${client} | ${fixed(ms, 1)} |`);
    const gzipTarget = mib === 8 ? ['≤ 2', (v) => v <= 2] : ['(reported)'];
    const clientTarget = mib === 8 ? ['≤ 4', (v) => v <= 4] : ['(reported)'];
    ratio(`${mib} MiB: MCP 2026-07-28 ÷ REST, raw client asking gzip`, [media['MCP 2026-07-28, node:http asking gzip'] / media['REST, node:http asking gzip']], ...gzipTarget);
    ratio(`${mib} MiB: MCP 2025 (SSE) ÷ REST, raw client asking gzip`, [media['MCP 2025 (SSE reply), node:http asking gzip'] / media['REST, node:http asking gzip']], '(reported)');
    ratio(`${mib} MiB: official v2 client ÷ REST with fetch`, [media['MCP, official v2 client (2026-07-28)'] / media['REST, fetch']], ...clientTarget);
    ratio(`${mib} MiB: the floor, bare mcp-handler ÷ REST, raw client`, [media['MCP floor (bare mcp-handler) 2026-07-28, node:http'] / media['REST, node:http']], '(the floor)');
    ratio(`${mib} MiB: gateway ÷ its floor, raw client`, [media['MCP 2026-07-28, node:http'] / media['MCP floor (bare mcp-handler) 2026-07-28, node:http']], '≤ 1.05', (v) => v <= 1.05);
    ratio(`${mib} MiB: the floor with the official v2 client ÷ REST with fetch`, [media['MCP floor (bare mcp-handler), official v2 client'] / media['REST, fetch']], '(the floor)');
    ratio(`${mib} MiB: official v1 client ÷ REST with fetch`, [media['MCP, official v1 client (2025 session)'] / media['REST, fetch']], '(reported)');
  }
  lines.push(...ratioLines);
  if (!args.match) lines.push('', ...(await importLines(base)));
  const confirmation = extra.get('confirmation');
  if (confirmation) {
    const { plainMs, roundTripMs } = confirmation;
    lines.push(
      '',
      `Confirmation round trip (2026-07-28, sequential, median of 50): both legs ${roundTripMs.toFixed(1)} ms against ${plainMs.toFixed(1)} ms ` +
        `for one plain tool call (${(roundTripMs / plainMs).toFixed(2)} ×), the user's think time not counted.`,
    );
  }
  const cost = extra.get('task');
  if (cost) lines.push('', taskCostLine(cost));
  lines.push('', `Total benchmark time: ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  report(lines);
}

await main();
