// Board streams under write load: snapshots and bytes each open /api/board/stream receives, and the server's CPU,
// while N writes a second change a board of M tasks (test build, SQLite, loopback). Prints a Markdown table.
// Usage: node scripts/bench-board-streams.mjs [--tasks M --writes N --seconds T --streams S]; BENCH_BOARD_PORT (3310).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = Object.fromEntries(
  process.argv.slice(2).flatMap((arg, i, all) => (arg.startsWith('--') ? [[arg.slice(2), all[i + 1]]] : [])),
);
const TASKS = Number(args.tasks ?? 1500);
const WRITES_PER_SECOND = Number(args.writes ?? 20);
const SECONDS = Number(args.seconds ?? 10);
const STREAMS = Number(args.streams ?? 4);
const PORT = Number(process.env.BENCH_BOARD_PORT) || 3310;
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of a process and its descendants so far, from /proc. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const own = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  const children = fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean));
  return own + children.reduce((sum, child) => sum + cpuSeconds(Number(child)), 0);
}

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-board-'));
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(PORT)], {
    env: { ...process.env, NODE_ENV: 'production', GATEWAY_TEST_BUILD: '1', PORT: String(PORT), DATABASE_FILE: path.join(dataDir, 'gateway.db') },
    stdio: 'ignore',
  });
  const baseURL = `http://localhost:${PORT}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${PORT} exited with ${child.exitCode}`);
    if (await fetch(`${baseURL}/api/board`).then((response) => response.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseURL, pid: child.pid, stop };
}

const json = (method, body) => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Opens a board stream that counts the snapshots it receives and keeps the last one's title of task `watchedId`. */
function openStream(baseURL, watchedId) {
  const stream = { snapshots: 0, bytes: 0, lastTitle: undefined, lastAt: 0, abort: new AbortController() };
  stream.done = (async () => {
    const response = await fetch(`${baseURL}/api/board/stream`, { headers: { accept: 'application/jsonl' }, signal: stream.abort.signal });
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const chunk of response.body) {
        stream.bytes += chunk.length;
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop();
        for (const line of lines.filter(Boolean)) {
          const event = JSON.parse(line);
          if (event.type !== 'board') continue;
          stream.snapshots++;
          stream.lastAt = performance.now();
          stream.lastTitle = event.board.columns.flatMap((column) => column.tasks).find((task) => task.id === watchedId)?.title;
        }
      }
    } catch (error) {
      if (error.name !== 'AbortError') throw error;
    }
  })();
  return stream;
}

async function main() {
  const server = await startServer();
  try {
    const rows = Array.from({ length: TASKS }, (_, i) => ({ title: `Bench task ${i + 1}`, status: ['todo', 'in_progress', 'done'][i % 3] }));
    const imported = await (await fetch(`${server.baseURL}/api/tasks/import`, json('POST', { rows }))).json();
    const watchedId = imported.ids.at(-1);
    const streams = Array.from({ length: STREAMS }, () => openStream(server.baseURL, watchedId));
    while (streams.some((stream) => stream.snapshots === 0)) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const stream of streams) Object.assign(stream, { snapshots: 0, bytes: 0 });

    const total = WRITES_PER_SECOND * SECONDS;
    const cpuBefore = cpuSeconds(server.pid);
    const started = performance.now();
    const writes = [];
    for (let i = 1; i <= total; i++) {
      const due = started + ((i - 1) * 1000) / WRITES_PER_SECOND;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      writes.push(fetch(`${server.baseURL}/api/tasks/${watchedId}`, json('PATCH', { title: `Title ${i}` })).then((response) => response.text()));
    }
    await Promise.all(writes);
    const acknowledged = performance.now();
    const finalTitle = `Title ${total}`;
    while (streams.some((stream) => stream.lastTitle !== finalTitle)) await new Promise((resolve) => setTimeout(resolve, 10));
    const settled = Math.max(acknowledged, ...streams.map((stream) => stream.lastAt));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // any snapshot still on its way
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    const elapsed = (performance.now() - started) / 1000;
    for (const stream of streams) stream.abort.abort();
    await Promise.all(streams.map((stream) => stream.done));

    const perStream = streams.length ? streams.map((stream) => stream.snapshots) : [0];
    const mib = streams.reduce((sum, stream) => sum + stream.bytes, 0) / Math.max(1, STREAMS) / 1024 / 1024;
    console.log(`Board streams: ${STREAMS} streams, ${TASKS} tasks on the board, ${WRITES_PER_SECOND} writes/s for ${SECONDS} s (${total} writes)\n`);
    console.log('| Snapshots per stream | MiB per stream | Server CPU | Last write acknowledged → final state on every stream |');
    console.log('| --- | --- | --- | --- |');
    console.log(
      `| ${Math.min(...perStream)}–${Math.max(...perStream)} | ${mib.toFixed(1)} | ${cpu.toFixed(2)} s in ${elapsed.toFixed(1)} s (${Math.round((100 * cpu) / elapsed)} % of a core) | ${Math.round(Math.max(0, settled - acknowledged))} ms |`,
    );
  } finally {
    await server.stop();
  }
}

await main();
