// The soak: mixed REST + MCP load (writes, reads, media, board streams) against the test build on loopback for N
// minutes; samples p50/p99 and RSS/heap over time, then writes RELIABILITY.md with charts and the reliability specs' figures.
// Usage: npm run soak [-- --minutes N --port N]. Exit code 1 when any request failed or memory did not level off.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshConnectionsLines, rollingRestartLines } from './rolling-restart-section.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const MINUTES = Number(args.minutes ?? 5);
const PORT = Number(args.port ?? 3300);
/** About 30 samples over the run, none shorter than 5 s. */
const WINDOW_MS = Math.max(5000, (MINUTES * 60_000) / 30);
/** Samples of the first fifth are warm-up (code loaded, caches filled): the plateau is judged after it. */
const WARM_UP_SHARE = 0.2;
const BOARD_STREAMS = 4;
const MIB = 1024 * 1024;
const FIGURES_DIR = 'test-reports/reliability';

const residentBytes = (pid) => Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) * 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, share) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] : 0);
const median = (values) => percentile([...values].sort((a, b) => a - b), 0.5);

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-soak-'));
  // Loopback only: the server listens on 127.0.0.1.
  const child = spawn(process.execPath, ['server/gateway.mjs', '-H', '127.0.0.1', '-p', String(PORT)], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      GATEWAY_TEST_BUILD: '1',
      PORT: String(PORT),
      DATABASE_FILE: path.join(dataDir, 'gateway.db'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseURL = `http://127.0.0.1:${PORT}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server on ${PORT} exited with ${child.exitCode}`);
    try {
      await fetch(`${baseURL}/favicon.ico`);
      break;
    } catch {
      await sleep(100);
    }
  }
  return {
    baseURL,
    pid: child.pid,
    /** SIGTERM, then how long the graceful shutdown took and how the process ended. */
    stop: async () => {
      const started = performance.now();
      child.kill('SIGTERM');
      const exit = await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
      return { ...exit, ms: Math.round(performance.now() - started) };
    },
  };
}

// ---- Requests: each checks its own answer; anything else is an error ------------------------------------------------

const json = { 'content-type': 'application/json' };
const mcpHeaders = (era, method, name) =>
  era === '2026'
    ? { ...json, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) }
    : { ...json, accept: 'application/json, text/event-stream' };
const META_2026 = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

class Failure extends Error {}

/** The sample window requests are counted in now; the sampler starts a new one every WINDOW_MS. */
let currentWindow;

/** Sends one request and counts it, its latency or its failure, in the current window. */
async function timed(door, send) {
  const window = currentWindow;
  const sent = performance.now();
  try {
    const result = await send();
    window.latencies[door].push(performance.now() - sent);
    return result;
  } catch (error) {
    window.errors++;
    throw error;
  } finally {
    window.requests++;
  }
}

function rest(base, method, urlPath, body) {
  return timed('REST', async () => {
    const response = await fetch(`${base}${urlPath}`, { method, headers: json, body: body && JSON.stringify(body) });
    const text = await response.text();
    if (response.status !== 200) throw new Failure(`REST ${method} ${urlPath}: ${response.status} ${text.slice(0, 200)}`);
    return response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
  });
}

/** One tools/call in either protocol era; returns the result, which must not be an error. */
function mcp(base, era, name, toolArguments = {}) {
  return timed('MCP', async () => {
    const params = { name, arguments: toolArguments, ...(era === '2026' ? { _meta: META_2026 } : {}) };
    const response = await fetch(`${base}/api/mcp`, {
      method: 'POST',
      headers: mcpHeaders(era, 'tools/call', name),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
    });
    const text = await response.text();
    const payload = text.startsWith('event:') || text.startsWith('data:') ? text.match(/^data: (.*)$/m)?.[1] : text;
    const result = payload ? JSON.parse(payload).result : undefined;
    if (response.status !== 200 || !result || result.isError) throw new Failure(`MCP ${name} (${era}): ${response.status} ${text.slice(0, 200)}`);
    return result;
  });
}

/** Creates a task, moves it twice, renames it and deletes it, through REST or MCP (the board stays small). */
async function taskLifecycle(base, door, era, n) {
  const statuses = ['todo', 'in_progress', 'done'];
  if (door === 'rest') {
    const task = await rest(base, 'POST', '/api/tasks', { title: `Soak ${n}`, assigneeId: 1 + (n % 3) });
    await rest(base, 'PUT', `/api/tasks/${task.id}/move`, { status: statuses[n % 3], position: 0 });
    await rest(base, 'PATCH', `/api/tasks/${task.id}`, { title: `Soak ${n} (renamed)` });
    await rest(base, 'PUT', `/api/tasks/${task.id}/move`, { status: statuses[(n + 1) % 3] });
    await rest(base, 'DELETE', `/api/tasks/${task.id}`);
    return;
  }
  const { structuredContent: task } = await mcp(base, era, 'TaskController_createTask', { body: { title: `Soak MCP ${n}` } });
  await mcp(base, era, 'TaskController_moveTask', { params: { id: task.id }, body: { status: statuses[n % 3], position: 0 } });
  await mcp(base, era, 'TaskController_updateTask', { params: { id: task.id }, body: { description: 'soaked' } });
  await mcp(base, era, 'TaskController_deleteTask', { params: { id: task.id } });
}

const eraOf = (n) => (n % 2 ? '2026' : '2025');

/** The mix: closed loops, each repeating one step (a step may send several requests). */
const SCENARIOS = [
  { name: 'REST reads', step: (base, n) => rest(base, 'GET', ['/api/tasks', '/api/board', '/api/users/1', '/api/users'][n % 4]) },
  { name: 'REST reads', step: (base, n) => rest(base, 'GET', ['/api/board', '/api/tasks?status=todo', '/api/text/greeting'][n % 3]) },
  { name: 'REST writes', step: (base, n) => taskLifecycle(base, 'rest', undefined, n) },
  { name: 'REST media', step: (base, n) => rest(base, 'GET', n % 2 ? '/api/media/image' : '/api/media/audio') },
  {
    name: 'MCP reads',
    step: (base, n) =>
      mcp(base, eraOf(n), ['TaskController_listTasks', 'UserController_getUser', 'BoardController_getBoard', 'sum_numbers'][n % 4], [{}, { params: { id: 1 } }, {}, { a: n, b: 1 }][n % 4]),
  },
  { name: 'MCP reads', step: (base, n) => mcp(base, eraOf(n + 1), n % 2 ? 'UserController_listUsers' : 'TextController_getFeed') },
  { name: 'MCP writes', step: (base, n) => taskLifecycle(base, 'mcp', eraOf(n), n) },
  { name: 'MCP media', step: (base, n) => mcp(base, eraOf(n), n % 2 ? 'MediaController_getImage' : 'MediaController_getAudio') },
];

// ---- The run --------------------------------------------------------------------------------------------------------

/** Per window: latencies (ms) by door, request and error counts, then memory. */
function newWindow(startedAt) {
  return { startedAt, latencies: { REST: [], MCP: [] }, requests: 0, errors: 0 };
}

/**
 * Board streams that stay open for 20–40 s each, then close and reopen, so that watchers come and go during the run.
 * Each must start with the board and end only when we close it.
 */
function watchBoards(base, stats, until) {
  const watcher = async (index) => {
    while (Date.now() < until) {
      const controller = new AbortController();
      const holdMs = 20_000 + ((index * 7919) % 20_000);
      const timer = setTimeout(() => controller.abort(), Math.min(holdMs, until - Date.now()));
      let first = true;
      try {
        const response = await fetch(`${base}/api/board/stream`, { headers: { accept: 'application/jsonl' }, signal: controller.signal });
        if (response.status !== 200) throw new Failure(`board stream: ${response.status}`);
        const decoder = new TextDecoder();
        let buffered = '';
        for await (const chunk of response.body) {
          buffered += decoder.decode(chunk, { stream: true });
          const lines = buffered.split('\n');
          buffered = lines.pop();
          for (const line of lines.filter(Boolean)) {
            const event = JSON.parse(line);
            if (first && event.type !== 'board') throw new Failure(`board stream began with ${line.slice(0, 100)}`);
            first = false;
            stats.boardEvents++;
          }
        }
        if (!controller.signal.aborted) throw new Failure('board stream ended by the server');
      } catch (error) {
        if (!controller.signal.aborted || error instanceof Failure) {
          stats.streamErrors.push(String(error.message ?? error));
        }
      } finally {
        clearTimeout(timer);
      }
      stats.streamsOpened++;
    }
  };
  return Promise.all(Array.from({ length: BOARD_STREAMS }, (_, index) => watcher(index)));
}

async function soak(server) {
  const startedAt = Date.now();
  const until = startedAt + MINUTES * 60_000;
  const windows = [newWindow(0)];
  currentWindow = windows[0];
  const errorSamples = [];
  const stats = { boardEvents: 0, streamsOpened: 0, streamErrors: [] };
  const memory = async () => (await fetch(`${server.baseURL}/api/fixture/memory`)).json();

  const loops = SCENARIOS.map(async (scenario, index) => {
    for (let n = index; Date.now() < until; n++) {
      try {
        await scenario.step(server.baseURL, n);
      } catch (error) {
        if (errorSamples.length < 20) errorSamples.push(`${scenario.name}: ${error.message ?? error}`);
      }
    }
  });
  const streams = watchBoards(server.baseURL, stats, until);

  const sampler = (async () => {
    while (Date.now() < until) {
      await sleep(Math.min(WINDOW_MS, until - Date.now()));
      const window = windows.at(-1);
      windows.push((currentWindow = newWindow(Date.now() - startedAt)));
      const retained = await memory();
      Object.assign(window, { endedAt: Date.now() - startedAt, rss: residentBytes(server.pid), heapUsed: retained.heapUsed, external: retained.external });
      console.log(
        `${(window.endedAt / 1000).toFixed(0)} s: ${window.requests} requests, ${window.errors} errors, RSS ${(window.rss / MIB).toFixed(0)} MiB, heap ${(window.heapUsed / MIB).toFixed(1)} MiB`,
      );
    }
  })();
  await Promise.all([...loops, streams, sampler]);
  return { windows: windows.filter((window) => window.endedAt !== undefined), errorSamples, stats };
}

// ---- Figures ---------------------------------------------------------------------------------------------------------

function summarize(windows) {
  return windows.map((window) => {
    const all = [...window.latencies.REST, ...window.latencies.MCP].sort((a, b) => a - b);
    const rest = [...window.latencies.REST].sort((a, b) => a - b);
    const mcpSorted = [...window.latencies.MCP].sort((a, b) => a - b);
    const seconds = (window.endedAt - window.startedAt) / 1000;
    return {
      t: window.endedAt / 1000,
      requests: window.requests,
      restRequests: window.latencies.REST.length,
      mcpRequests: window.latencies.MCP.length,
      errors: window.errors,
      rps: window.requests / seconds,
      p50: percentile(all, 0.5),
      p99: percentile(all, 0.99),
      restP99: percentile(rest, 0.99),
      mcpP99: percentile(mcpSorted, 0.99),
      rssMiB: window.rss / MIB,
      heapMiB: window.heapUsed / MIB,
      externalMiB: window.external / MIB,
    };
  });
}

/**
 * Memory levels off when, after the warm-up, the retained heap (after a full GC) of the last quarter is not above the
 * first quarter's by more than 10 MiB, or the quarters do not keep rising; RSS drift is reported the same way.
 */
function plateau(rows) {
  const after = rows.slice(Math.floor(rows.length * WARM_UP_SHARE));
  const quarter = Math.max(1, Math.floor(after.length / 4));
  const rounds = [0, 1, 2, 3].map((i) => after.slice(i * quarter, i === 3 ? after.length : (i + 1) * quarter)).filter((round) => round.length);
  const medians = (key) => rounds.map((round) => median(round.map((row) => row[key])));
  const heap = medians('heapMiB');
  const rss = medians('rssMiB');
  const rising = heap.every((value, i) => i === 0 || value > heap[i - 1]);
  const heapGrowth = heap.at(-1) - heap[0];
  const minutes = (after.at(-1).t - after[0].t) / 60;
  return {
    heapRounds: heap,
    rssRounds: rss,
    heapGrowthMiB: heapGrowth,
    rssDriftMiBPerMinute: minutes > 0 ? (rss.at(-1) - rss[0]) / ((minutes * 3) / 4) : 0,
    levelsOff: heapGrowth <= 10 || !rising,
  };
}

/** A line chart as SVG: x = seconds, one polyline per series, y axis from 0. */
function lineChart({ title, unit, rows, series }) {
  const width = 760;
  const height = 280;
  const margin = { left: 56, right: 16, top: 36, bottom: 40 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const maxT = Math.max(...rows.map((row) => row.t));
  const rawMax = Math.max(...series.flatMap(({ key }) => rows.map((row) => row[key])));
  const step = 10 ** Math.floor(Math.log10(rawMax || 1));
  const maxY = Math.ceil((rawMax * 1.1) / step) * step || 1;
  const x = (t) => margin.left + (t / maxT) * plotWidth;
  const y = (value) => margin.top + plotHeight - (value / maxY) * plotHeight;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => share * maxY);
  const timeTicks = [0, 0.25, 0.5, 0.75, 1].map((share) => share * maxT);
  const fmt = (value) => (maxY >= 10 ? value.toFixed(0) : value.toFixed(1));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${margin.left}" y="20" font-size="14" font-weight="bold">${title}</text>`,
    ...ticks.map(
      (value) =>
        `<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/><text x="${margin.left - 6}" y="${y(value) + 4}" text-anchor="end">${fmt(value)}</text>`,
    ),
    ...timeTicks.map((t) => `<text x="${x(t)}" y="${height - margin.bottom + 16}" text-anchor="middle">${Math.round(t)} s</text>`),
    `<text x="14" y="${margin.top + plotHeight / 2}" transform="rotate(-90 14 ${margin.top + plotHeight / 2})" text-anchor="middle">${unit}</text>`,
    `<text x="${margin.left + plotWidth / 2}" y="${height - 6}" text-anchor="middle">time since the load started</text>`,
  ];
  series.forEach(({ key, label, color }, index) => {
    const points = rows.map((row) => `${x(row.t).toFixed(1)},${y(row[key]).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`);
    const legendX = width - margin.right - (series.length - index) * 130;
    parts.push(`<line x1="${legendX}" x2="${legendX + 18}" y1="16" y2="16" stroke="${color}" stroke-width="2"/><text x="${legendX + 24}" y="20">${label}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function machine() {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

function readFigures(name) {
  const file = path.join(FIGURES_DIR, `${name}.json`);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

const f0 = (value) => Math.round(value).toLocaleString('en');
const f1 = (value) => value.toFixed(1);

function reliabilitySections() {
  const lines = [];
  const shutdown = readFigures('shutdown');
  const page = readFigures('shutdown-board-page');
  lines.push('## Graceful shutdown (`e2e/shutdown.spec.ts`)', '');
  if (shutdown) {
    lines.push(
      `SIGTERM to the gateway (\`server/gateway.mjs\`) with ${shutdown.inFlightAtSignal} slow requests in flight (the longest ${shutdown.longestRequestMs} ms) and 2 board streams open, \`SHUTDOWN_GRACE_MS=${shutdown.graceMs}\`:`,
      '',
      '| What | Result |',
      '| --- | --- |',
      `| Requests in flight at the signal | ${Object.entries(shutdown.inFlightAnswers).map(([label, count]) => `${count} × ${label}`).join(', ')} (0 reset) |`,
      `| Requests sent during the shutdown (REST, MCP, stream, page) | ${Object.entries(shutdown.duringShutdown).map(([label, count]) => `${count} × ${label}`).join(', ')}, with \`Retry-After: 1\` |`,
      `| Board streams | ${shutdown.boardStreamsEndedWithReconnect} of 2 ended with \`{"type":"reconnect"}\` |`,
      `| Exit | code ${shutdown.exitCode}, ${f0(shutdown.shutdownMs)} ms after the signal (grace ${shutdown.graceMs} ms) |`,
      `| A request after the exit | ${shutdown.afterExit} (the port is closed only once the process ends) |`,
    );
    if (page) lines.push(`| The board page | asked for the stream again ${page.reconnectAfterStreamEndMs} ms after the reconnect line ended it (after any other end it waits 1 s); live again on the restarted server, ${page.pageReloads} reloads |`);
    lines.push('', `Measured ${shutdown.measuredAt}.`, '');
  } else lines.push('Not run: no figures in test-reports/reliability.', '');
  lines.push(...freshConnectionsLines(readFigures('shutdown-fresh-connections')));
  lines.push(...rollingRestartLines(readFigures('rolling-restart')));

  lines.push('## Durability under kill -9 (`e2e/durability.spec.ts`)', '');
  const durability = ['sqlite', 'postgres'].map((backend) => readFigures(`durability-${backend}`)).filter(Boolean);
  if (durability.length) {
    lines.push(
      `${durability[0].workers} concurrent writers (half REST, half MCP) create tasks and move their own; the server gets SIGKILL after 150–250 acknowledged writes, is started again on the same database, and everything acknowledged so far is checked. Three rounds per backend.`,
      '',
      '| Backend | Round | Acknowledged writes (round) | Acknowledged tasks so far | Present after restart | Missing | Positions 0…n-1 | integrity_check |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    );
    for (const figures of durability) {
      for (const round of figures.rounds) {
        lines.push(`| ${figures.backend} | ${round.round} | ${round.acknowledgedThisRound} | ${round.acknowledgedTasks} | ${round.present} | ${round.missing} | yes | ${round.integrity ?? 'n/a'} |`);
      }
    }
    lines.push('');
    for (const figures of durability) {
      lines.push(`- ${figures.backend}: ${figures.acknowledgedWrites} acknowledged writes (${figures.acknowledgedCreates} creates, ${figures.acknowledgedMoves} moves), all present; ${figures.unansweredWrites} writes were in flight at the kills (they may or may not have happened; each task's status is one its writes left). Measured ${figures.measuredAt}.`);
    }
    lines.push(
      '',
      'SQLite runs in WAL mode with `synchronous=FULL`: a commit is fsynced before the write is acknowledged. A kill -9 cannot lose a committed write under any `synchronous` setting (the WAL is in the OS page cache), FULL also keeps it through a power loss or OS crash, where `NORMAL` may lose the last ones. The price here is about 4 ms per write.',
      '',
    );
  } else lines.push('Not run: no figures in test-reports/reliability.', '');

  lines.push('## PostgreSQL outage (`e2e/db-outage.spec.ts`)', '');
  const outage = readFigures('db-outage');
  if (outage) {
    lines.push(
      `A throwaway cluster stopped (\`pg_ctl -m fast\`) for ${f0(outage.outageMs)} ms and started again under load (REST readers and a writer, MCP readers), with /board open in chromium. During the outage a task was added directly in the database, where the gateway could not hear of it.`,
      '',
      '| What | Result |',
      '| --- | --- |',
      `| During the outage | ${outage.duringOutage.rest503WithRetryAfter} REST answers 503 + \`Retry-After: 2\`, ${outage.duringOutage.mcpIsErrorUnavailable} MCP isError "The database is unavailable…"; median ${outage.duringOutage.medianMs} ms, slowest ${outage.duringOutage.slowestMs} ms |`,
      `| Any other answer (500, hang, reset) | ${outage.otherAnswers} of ${outage.requests} requests; slowest answer of the whole run ${outage.slowestAnswerMs} ms |`,
      `| Recovery | first REST 200 ${outage.restRecoveryMs} ms after \`pg_ctl start\` began (PostgreSQL's own start: ${outage.postgresStartMs} ms); no restart of the gateway |`,
      `| Board | the task added during the outage on the page ${outage.boardResyncMs} ms after \`pg_ctl start\` began (LISTEN reopened, fresh snapshot pushed), ${outage.pageReloads} reloads |`,
      '',
      `Measured ${outage.measuredAt}. An unreachable database (connections accepted, never answered) fails requests after the 3 s connect timeout (\`test/unit/store-outage.test.ts\`).`,
      '',
    );
  } else lines.push('Not run: no figures in test-reports/reliability.', '');
  return lines;
}

function report({ rows, memoryLevel, totals, stats, errorSamples, shutdown }) {
  const after = rows.slice(Math.floor(rows.length * WARM_UP_SHARE));
  const lines = [
    '# Reliability',
    '',
    'How the gateway holds up: a soak under mixed load, graceful shutdown, a rolling restart behind nginx, durability under kill -9,',
    'a PostgreSQL outage.',
    'Written by `npm run soak` (`scripts/soak.sh`): it runs the four reliability specs of `npm test` first (their figures',
    'below come from that run), then the soak. Reproduce with:',
    '',
    '```sh',
    'npm run soak                    # 5 minutes of load (default), about 7 minutes in all',
    'npm run soak -- --minutes 2     # a shorter soak',
    '```',
    '',
    `## Soak: ${MINUTES} minute${MINUTES === 1 ? '' : 's'} of mixed load${MINUTES < 5 ? ' (a shorter run than the default 5)' : ''}`,
    '',
    `Machine: ${machine()}.`,
    `Server: the test build (\`server/gateway.mjs\` serving \`.next-test\` on 127.0.0.1, SQLite). Load: ${SCENARIOS.length} closed loops (each sends its next request when the last is answered) —`,
    'REST reads (tasks, board, users, text), REST writes (create, move, edit, move, delete a task), REST media (PNG, MP3),',
    'MCP reads, writes and media through `tools/call` alternating both protocol eras — plus',
    `${BOARD_STREAMS} board streams that reopen every 20–40 s. Every answer is checked (status, and no isError on MCP). Memory: RSS`,
    `from /proc, heap and external memory after a full GC (the test build's \`/api/fixture/memory\`), every ${WINDOW_MS / 1000} s.`,
    '',
    '| Total | Value |',
    '| --- | --- |',
    `| Requests | ${f0(totals.requests)} (${f0(totals.requests / (MINUTES * 60))} req/s) |`,
    `| Errors | **${totals.errors}** |`,
    `| Answered, by door | REST ${f0(rows.reduce((sum, row) => sum + row.restRequests, 0))}, MCP ${f0(rows.reduce((sum, row) => sum + row.mcpRequests, 0))} |`,
    `| Board streams | ${stats.streamsOpened} opened, ${f0(stats.boardEvents)} events received, ${stats.streamErrors.length} failed |`,
    `| p50 / p99 over the run (median of the samples) | ${f1(median(rows.map((row) => row.p50)))} ms / ${f1(median(rows.map((row) => row.p99)))} ms |`,
    `| Worst sample p99 | ${f1(Math.max(...rows.map((row) => row.p99)))} ms |`,
    `| RSS | first sample ${f0(rows[0].rssMiB)} MiB; after warm-up ${f0(Math.min(...after.map((row) => row.rssMiB)))}–${f0(Math.max(...after.map((row) => row.rssMiB)))} MiB, medians of the 4 rounds ${memoryLevel.rssRounds.map(f0).join(' → ')} MiB: drift ${f1(memoryLevel.rssDriftMiBPerMinute)} MiB/min |`,
    `| Heap after GC, medians of the 4 rounds after warm-up | ${memoryLevel.heapRounds.map(f1).join(' → ')} MiB (${memoryLevel.levelsOff ? 'levels off' : '**keeps rising**'}) |`,
    `| SIGTERM at the end | exit code ${shutdown.code}, ${f0(shutdown.ms)} ms |`,
    '',
    '![RSS, heap and external memory of the server over the soak](docs/reliability-memory.svg)',
    '',
    '![p50 and p99 latency over the soak](docs/reliability-latency.svg)',
    '',
    '| t (s) | requests | req/s | errors | p50 ms | p99 ms | p99 REST | p99 MCP | RSS MiB | heap MiB | external MiB |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${f0(row.t)} | ${f0(row.requests)} | ${f0(row.rps)} | ${row.errors} | ${f1(row.p50)} | ${f1(row.p99)} | ${f1(row.restP99)} | ${f1(row.mcpP99)} | ${f0(row.rssMiB)} | ${f1(row.heapMiB)} | ${f1(row.externalMiB)} |`,
    ),
    '',
    `Each request counts in the sample during which it was sent. The first ${Math.round(WARM_UP_SHARE * 100)} % of the samples are warm-up; memory levels`,
    'off when the heap of the last round after it is within 10 MiB of the first, or the rounds do not keep rising.',
    '',
  ];
  if (errorSamples.length || stats.streamErrors.length) lines.push('Errors seen:', '', ...[...errorSamples, ...stats.streamErrors].map((text) => `- ${text}`), '');
  lines.push(...reliabilitySections());
  return `${lines.join('\n')}`;
}

// ---- Main -------------------------------------------------------------------------------------------------------------

const server = await startServer();
console.log(`Soak: ${MINUTES} min of mixed load against ${server.baseURL} (pid ${server.pid})`);
let result;
let shutdown;
try {
  result = await soak(server);
} finally {
  shutdown = await server.stop();
}
const rows = summarize(result.windows);
const totals = rows.reduce((sum, row) => ({ requests: sum.requests + row.requests, errors: sum.errors + row.errors }), { requests: 0, errors: 0 });
totals.errors += result.stats.streamErrors.length;
const memoryLevel = plateau(rows);
fs.mkdirSync('docs', { recursive: true });
const charts = {
  'docs/reliability-memory.svg': {
    title: 'Server memory during the soak',
    unit: 'MiB',
    series: [
      { key: 'rssMiB', label: 'RSS', color: '#d62728' },
      { key: 'heapMiB', label: 'heap after GC', color: '#1f77b4' },
      { key: 'externalMiB', label: 'external after GC', color: '#2ca02c' },
    ],
  },
  'docs/reliability-latency.svg': {
    title: 'Latency during the soak',
    unit: 'ms',
    series: [
      { key: 'p50', label: 'p50', color: '#1f77b4' },
      { key: 'p99', label: 'p99', color: '#d62728' },
    ],
  },
};
for (const [file, chart] of Object.entries(charts)) fs.writeFileSync(file, lineChart({ ...chart, rows }));
fs.writeFileSync('RELIABILITY.md', report({ rows, memoryLevel, totals, stats: result.stats, errorSamples: result.errorSamples, shutdown }));
console.log(
  `${totals.requests} requests, ${totals.errors} errors; p99 (median of samples) ${f1(median(rows.map((row) => row.p99)))} ms; heap rounds ${memoryLevel.heapRounds.map(f1).join(' → ')} MiB; RSS drift ${f1(memoryLevel.rssDriftMiBPerMinute)} MiB/min. Wrote RELIABILITY.md.`,
);
process.exitCode = totals.errors === 0 && memoryLevel.levelsOff && shutdown.code === 0 ? 0 : 1;
