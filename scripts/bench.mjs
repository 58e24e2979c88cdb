// The benchmark: what reaching a procedure through MCP costs against REST and a hand-written tool, on loopback (test build),
// and how fast a task import goes on SQLite and PostgreSQL (TEST_DATABASE_URL: the cluster scripts/bench.sh starts).
// Usage: npm run bench [-- --seconds N --rounds N | --only import]. Prints Markdown; BENCH_OUT=file also writes it there.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

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
const residentBytes = (pid) => Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) * 1024;

async function startServer(port, env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['server/gateway.mjs', '-p', String(port)], {
    env: { ...process.env, NODE_ENV: 'production', GATEWAY_TEST_BUILD: '1', PORT: String(port), DATABASE_FILE: path.join(dataDir, 'gateway.db'), ...env },
    stdio: 'ignore',
  });
  const baseURL = `http://localhost:${port}`;
  // Ready = the first tools/list answered: that is the cold start a client sees.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${baseURL}/api/mcp`, mcpRequest('tools/list', {}));
      if (response.ok && (await response.text()).includes('UserController_getUser')) break;
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

/** The JSON-RPC result of one request (plain JSON or the last SSE `data:` line). */
async function resultOf(server, request) {
  const text = await (await fetch(`${server.baseURL}/api/mcp`, request)).text();
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
    { name: 'MCP tools/call getUser (2025 framing)', ...post(gateway, '/api/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    { name: 'MCP tools/call getUser (2026-07-28)', ...post(gateway, '/api/mcp', toolCall('UserController_getUser', user, '2026')), expect: 'structuredContent' },
    // The same call on a 2025-era session: the SDK's sessionful transport, each SSE event stored (SQLite) before it goes.
    { name: 'MCP tools/call getUser (2025 session)', ...post(gateway, '/api/mcp', onSession), expect: 'structuredContent' },
    { name: 'hand-written registerTool getUser', ...post(gateway, '/api/bench/mcp', toolCall('getUser', { id: 1 })), expect: 'structuredContent' },
    { name: 'MCP ping (transport floor, no tool)', ...post(gateway, '/api/mcp', mcpRequest('ping', {})), expect: '"result":{}' },
    { name: 'MCP getTask (2026-07-28)', ...post(gateway, '/api/mcp', toolCall('TaskController_getTask', user, '2026')), expect: 'structuredContent' },
    { name: 'MCP deleteTask, 1st leg: input_required (2026-07-28)', ...post(gateway, '/api/mcp', confirmation.ask), expect: '"input_required"' },
    { name: 'MCP deleteTask, 2nd leg: retry, declined (2026-07-28)', ...post(gateway, '/api/mcp', confirmation.retry), expect: 'the user declined' },
    // The catalogue pairs: two servers alike but for 200 generated tools, each pair measured back to back (A B).
    { name: 'MCP tools/call, 9-tool server', ...post(small, '/api/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    { name: 'MCP tools/call, 209-tool server', ...post(catalogue, '/api/mcp', toolCall('UserController_getUser', user)), expect: 'structuredContent' },
    { name: 'MCP tools/list, 9-tool server', ...post(small, '/api/mcp', mcpRequest('tools/list', {})), expect: 'sum_numbers' },
    { name: 'MCP tools/list, 209-tool server', ...post(catalogue, '/api/mcp', mcpRequest('tools/list', {})), expect: 'bench_tool_200' },
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

/** One bounded load run; samples the server's RSS every 50 ms. */
async function load(scenario, seconds) {
  const pid = scenario.server.pid;
  const start = residentBytes(pid);
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 50);
  const result = await autocannon({
    url: scenario.server.baseURL + scenario.path,
    ...scenario.request,
    connections: scenario.connections ?? CONNECTIONS,
    duration: seconds,
  });
  clearInterval(sampler);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerSecond: result.throughput.average,
    errors: result.errors + result.timeouts + result.non2xx,
    start,
    peak,
  };
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
  const samples = requests.map(() => []);
  for (let i = 0; i < times; i++) {
    for (const [index, { server, path: urlPath, request }] of requests.entries()) {
      samples[index].push(await timedRequest(server.baseURL + urlPath, request));
    }
  }
  return samples.map(median);
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

async function main() {
  const started = Date.now();
  // base … base+2 serve, base+3 and base+4 import (SQLite, PostgreSQL), base+5 … base+7 cold starts
  const base = Number(process.env.BENCH_PORT) || 3290;
  const env = { GATEWAY_BENCHMARK: '1', MCP_MAX_MEDIA_BYTES: String(16 * MIB) };
  if (args.only === 'import') return report([`Machine: ${machine()}`, '', ...(await importLines(base))]);

  const coldStarts = [];
  for (let i = 0; i < 3; i++) {
    const server = await startServer(base + 5 + i, env);
    coldStarts.push(server.coldStartMs);
    await server.stop();
  }

  const gateway = await startServer(base, env);
  const small = await startServer(base + 1, env);
  const catalogue = await startServer(base + 2, { ...env, GATEWAY_BENCHMARK_TOOLS: '200' });
  const list = scenarios(gateway, small, catalogue, await confirmationLegs(gateway), await sessionHeaders(gateway));
  const runs = new Map(list.map((scenario) => [scenario.name, []]));
  const downloadMs = new Map();
  try {
    for (const scenario of list) {
      await checkAnswer(scenario);
      await load(scenario, 2); // warm-up, not counted: every scenario gets the same, so no server is warmer than another
    }
    // Rounds cycle through every scenario (A B C … A B C …), so slow drifts of a noisy machine hit all alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of list) runs.get(scenario.name).push(await load(scenario, SECONDS));
    }
    const confirmationNames = ['MCP getTask (2026-07-28)', 'MCP deleteTask, 1st leg: input_required (2026-07-28)', 'MCP deleteTask, 2nd leg: retry, declined (2026-07-28)'];
    const [plainMs, askMs, retryMs] = await downloadLatency(confirmationNames.map((name) => list.find((scenario) => scenario.name === name)), 50);
    downloadMs.set('confirmation', { plainMs, roundTripMs: askMs + retryMs });
    downloadMs.set('task', await taskCost(gateway, 30));
    const eightMiB = ['REST image 8 MiB', 'MCP image 8 MiB', 'MCP image 8 MiB (2026-07-28)'];
    const latencies = await downloadLatency(eightMiB.map((name) => list.find((scenario) => scenario.name === name)), 15);
    eightMiB.forEach((name, index) => downloadMs.set(name, latencies[index]));
  } finally {
    await Promise.all([gateway.stop(), small.stop(), catalogue.stop()]);
  }

  const summary = new Map(
    list.map(({ name }) => {
      const results = runs.get(name);
      return [
        name,
        {
          rps: median(results.map((r) => r.rps)),
          p50: median(results.map((r) => r.p50)),
          p99: median(results.map((r) => r.p99)),
          mibPerSecond: median(results.map((r) => r.bytesPerSecond)) / MIB,
          errors: results.reduce((sum, r) => sum + r.errors, 0),
          startMiB: median(results.map((r) => r.start)) / MIB,
          peakMiB: Math.max(...results.map((r) => r.peak)) / MIB,
          growthMiB: median(results.map((r) => r.peak - r.start)) / MIB,
        },
      ];
    }),
  );
  const s = (name) => summary.get(name);
  const lines = [
    `Machine: ${machine()}`,
    `Load: autocannon, ${CONNECTIONS} connections (media: 2 for 1 MiB, 1 for 8 MiB), ${SECONDS} s per run, ${ROUNDS} rounds; medians.`,
    '',
    '| Scenario | req/s | p50 ms | p99 ms | MiB/s | errors | RSS MiB: start → peak (growth) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...list.map(({ name }) => {
      const r = s(name);
      return `| ${name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.mibPerSecond.toFixed(1)} | ${r.errors} | ${r.startMiB.toFixed(0)} → ${r.peakMiB.toFixed(0)} (+${r.growthMiB.toFixed(0)}) |`;
    }),
    '',
    '| Ratio | value | target |',
    '| --- | ---: | --- |',
  ];
  const ratio = (label, value, target, ok) => lines.push(`| ${label} | ${value.toFixed(2)} | ${target} ${ok(value) ? '✓' : '✗'} |`);
  const derived = s('MCP tools/call getUser (2025 framing)');
  ratio('derived ÷ hand-written (req/s)', derived.rps / s('hand-written registerTool getUser').rps, '≥ 0.95', (v) => v >= 0.95);
  ratio('MCP ÷ REST (req/s)', derived.rps / s('REST GET /api/users/1').rps, '≥ 0.8', (v) => v >= 0.8);
  ratio('2025 session ÷ stateless 2025 tools/call (req/s)', s('MCP tools/call getUser (2025 session)').rps / derived.rps, '(reported)', () => true);
  ratio('MCP ping ÷ REST (req/s): the transport floor', s('MCP ping (transport floor, no tool)').rps / s('REST GET /api/users/1').rps, '(reported)', () => true);
  ratio('tools/call 209 ÷ 9 tools (req/s)', s('MCP tools/call, 209-tool server').rps / s('MCP tools/call, 9-tool server').rps, '≥ 0.9', (v) => v >= 0.9);
  ratio('tools/list 209 ÷ 9 tools (req/s)', s('MCP tools/list, 209-tool server').rps / s('MCP tools/list, 9-tool server').rps, '(reported)', () => true);
  const image8 = s('MCP image 8 MiB');
  const restDownload = downloadMs.get('REST image 8 MiB');
  lines.splice(
    lines.indexOf('| Ratio | value | target |') - 1,
    0,
    '',
    `8 MiB single-request latency (node:http, median of 15): REST ${restDownload.toFixed(1)} ms, MCP ${downloadMs.get('MCP image 8 MiB').toFixed(1)} ms, ` +
      `MCP 2026-07-28 ${downloadMs.get('MCP image 8 MiB (2026-07-28)').toFixed(1)} ms.`,
  );
  ratio('8 MiB MCP ÷ REST latency (single request)', downloadMs.get('MCP image 8 MiB') / restDownload, '≤ 2', (v) => v <= 2);
  ratio('same, 2026-07-28 framing', downloadMs.get('MCP image 8 MiB (2026-07-28)') / restDownload, '≤ 2', (v) => v <= 2);
  ratio('8 MiB MCP peak RSS growth ÷ payload (median of runs)', image8.growthMiB / 8, '≤ 4', (v) => v <= 4);
  ratio('same, 2026-07-28 framing (plain JSON reply)', s('MCP image 8 MiB (2026-07-28)').growthMiB / 8, '≤ 4', (v) => v <= 4);
  ratio('cold start to first tools/list (ms, median of 3)', median(coldStarts), '< 1000', (v) => v < 1000);
  lines.push('', ...(await importLines(base)));
  const { plainMs, roundTripMs } = downloadMs.get('confirmation');
  lines.push(
    '',
    `Confirmation round trip (2026-07-28, sequential, median of 50): both legs ${roundTripMs.toFixed(1)} ms against ${plainMs.toFixed(1)} ms ` +
      `for one plain tool call (${(roundTripMs / plainMs).toFixed(2)} ×), the user's think time not counted.`,
  );
  const cost = downloadMs.get('task');
  lines.push(
    '',
    `Cost of a task (sequential, median of 30, a one-step count; polls every ${POLL_MS} ms): MCP direct call ${cost.directMs.toFixed(1)} ms, ` +
      `as a task (create + ${cost.polls} tasks/get to the result) ${cost.taskMs.toFixed(1)} ms (${(cost.taskMs / cost.directMs).toFixed(2)} ×); ` +
      `REST call ${cost.restMs.toFixed(1)} ms, as a job (202 + GET polls) ${cost.jobMs.toFixed(1)} ms (${(cost.jobMs / cost.restMs).toFixed(2)} ×).`,
  );
  lines.push('', `Total benchmark time: ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  report(lines);
}

await main();
