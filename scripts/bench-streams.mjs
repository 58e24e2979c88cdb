// A streamed procedure over REST and as an MCP tool (`npm run bench -- --only streams [--items N] [--calls N]`, issue
// 35): BenchController's `GET /api/bench/stream?count=N` (an async generator with an `iteration` schema, N small items,
// no delay) read to its last JSON line over REST, against the tool call of the same procedure — its items collected
// into `structuredContent.items` — by a raw fetch (2026-07-28), the official v2 client pinned to 2026-07-28 and the v1
// client (a 2025 session), each client also with a progress token (`onprogress`: every item a progress notification);
// and `GET /api/bench/stream-responder`, the same items sent through a `JSONLinesResponder`, over REST and by the v2
// client. More than 1,000 items raise the tool result's bounds (MCP_STREAM_MAX_ITEMS, MCP_STREAM_MAX_BYTES) to hold them.
// Each round runs every side `calls` times one after another, the sides in turn (A B C …, then … C B A): the time to
// the last item (median of the round), the server's CPU and the bench process's own CPU per call. Prints min–max
// (median) over the rounds, and each side ÷ REST round by round.

const DEFAULT_ITEMS = 1000;
const DEFAULT_CALLS = 10;
const WARM_UP_CALLS = 5;
const TOOL = 'BenchController_streamItems';
const RESPONDER_TOOL = 'BenchController_streamItemsByResponder';

/** Reads a fetch response's body to its end: ms to the first complete line and the number of lines. */
async function readLines(response, started) {
  const reader = response.body.getReader();
  let lines = 0;
  let firstMs;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    for (const byte of chunk.value) if (byte === 10) lines++;
    if (lines && firstMs === undefined) firstMs = performance.now() - started;
  }
  return { lines, firstMs };
}

/** Throws unless a tool result holds the `items` of a stream of `count` items. */
function checkItems(result, count, side) {
  const items = result?.structuredContent?.items;
  if (result?.isError || items?.length !== count || items[count - 1]?.i !== count) {
    throw new Error(`${side}: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
  }
}

/** The sides measured: name → one call (resolves to the ms to its first item when it sees items arrive, else undefined). */
async function streamSides(server, helpers, count) {
  const { officialClient, mcpRequest } = helpers;
  const args = { query: { count } };
  const v2 = await officialClient(server.baseURL, 2);
  const v1 = await officialClient(server.baseURL, 1);
  const raw = mcpRequest('tools/call', { name: TOOL, arguments: args }, '2026');
  const viaClient = (client, version, progress, side, tool = TOOL) => async () => {
    const started = performance.now();
    let notified = 0;
    let firstMs;
    const options = progress
      ? {
          onprogress: () => {
            if (!notified++) firstMs = performance.now() - started;
          },
        }
      : undefined;
    const params = { name: tool, arguments: args };
    const result = version === 2 ? await client.callTool(params, options) : await client.callTool(params, undefined, options);
    checkItems(result, count, side);
    if (progress && notified !== count) throw new Error(`${side}: ${notified} progress notifications for ${count} items`);
    return firstMs;
  };
  const restStream = (path) => async () => {
    const started = performance.now();
    const response = await fetch(`${server.baseURL}${path}?count=${count}`, { headers: { accept: 'application/jsonl' } });
    const { lines, firstMs } = await readLines(response, started);
    if (!response.ok || lines !== count) throw new Error(`REST ${path}: ${response.status}, ${lines} lines for ${count} items`);
    return firstMs;
  };
  const REST = 'REST `GET /api/bench/stream`, fetch, `Accept: application/jsonl`';
  const REST_RESPONDER = 'REST `GET /api/bench/stream-responder` (a `JSONLinesResponder`), fetch';
  // Each side with the REST side it is compared with (the same procedure over REST).
  const sides = {
    [REST]: { call: restStream('/api/bench/stream') },
    'MCP 2026-07-28 `tools/call`, fetch (raw JSON-RPC, no SDK)': {
      rest: REST,
      call: async () => {
        const text = await (await fetch(`${server.baseURL}/api/mcp`, raw)).text();
        const json = text.startsWith('{') ? text : text.match(/^data: (.+)$/gm).at(-1).slice(6);
        checkItems(JSON.parse(json).result, count, 'raw MCP');
      },
    },
    'MCP, official v2 client (2026-07-28)': { rest: REST, call: viaClient(v2, 2, false, 'v2') },
    'MCP, official v2 client (2026-07-28), `onprogress`': { rest: REST, call: viaClient(v2, 2, true, 'v2 with progress') },
    'MCP, official v1 client (2025 session)': { rest: REST, call: viaClient(v1, 1, false, 'v1') },
    'MCP, official v1 client (2025 session), `onprogress`': { rest: REST, call: viaClient(v1, 1, true, 'v1 with progress') },
    [REST_RESPONDER]: { call: restStream('/api/bench/stream-responder') },
    'MCP, official v2 client (2026-07-28), the `JSONLinesResponder` procedure': {
      rest: REST_RESPONDER,
      call: viaClient(v2, 2, false, 'v2, responder', RESPONDER_TOOL),
    },
  };
  return { sides, close: () => Promise.all([v2.close(), v1.close()]) };
}

/** `calls` sequential calls of `call`: the median ms, the ms to the first item (median, when seen), server and client CPU ms per call. */
async function measure(server, call, calls, cpuMs, median) {
  const ms = [];
  const firsts = [];
  const serverBefore = cpuMs(server.pid);
  const clientBefore = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const firstMs = await call();
    ms.push(performance.now() - started);
    if (firstMs !== undefined) firsts.push(firstMs);
  }
  const client = process.cpuUsage(clientBefore);
  return {
    ms: median(ms),
    firstMs: firsts.length ? median(firsts) : undefined,
    serverCpu: (cpuMs(server.pid) - serverBefore) / calls,
    clientCpu: (client.user + client.system) / 1000 / calls,
  };
}

/** The figures, as Markdown lines. */
export async function streamLines(helpers, port, env, { rounds, items = DEFAULT_ITEMS, calls = DEFAULT_CALLS }) {
  const { startServer, cpuMs, median } = helpers;
  const bounds = { MCP_STREAM_MAX_ITEMS: String(Math.max(items, DEFAULT_ITEMS)), MCP_STREAM_MAX_BYTES: String(Math.max(items * 64, 1024 * 1024)) };
  const server = await startServer(port, { ...env, ...bounds });
  const figures = {};
  let sides;
  let close;
  try {
    ({ sides, close } = await streamSides(server, helpers, items));
    try {
      const names = Object.keys(sides);
      for (const name of names) {
        figures[name] = [];
        for (let i = 0; i < WARM_UP_CALLS; i++) await sides[name].call();
      }
      for (let round = 0; round < rounds; round++) {
        for (const name of round % 2 ? names.toReversed() : names) figures[name].push(await measure(server, sides[name].call, calls, cpuMs, median));
      }
    } finally {
      await close();
    }
  } finally {
    await server.stop();
  }
  const baseOf = Object.fromEntries(Object.entries(sides).map(([name, side]) => [name, side.rest]));
  const span = (values, digits = 1) =>
    values.length ? `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} (${median(values).toFixed(digits)})` : '—';
  const of = (name, key) => figures[name].map((round) => round[key]).filter((value) => value !== undefined);
  const ratio = (name, key) => figures[name].map((round, i) => round[key] / figures[baseOf[name]][i][key]);
  return [
    `### A stream of ${items.toLocaleString('en-US')} items, REST against the MCP tool (issue 35): min–max (median) of ${rounds} rounds`,
    '',
    `Each round: every side ${calls} calls one after another, the sides in turn (A B C …, then … C B A), after ${WARM_UP_CALLS} calls each to warm up; ` +
      'a round\'s time is the median of its calls, CPU its total ÷ its calls (server: /proc, 10 ms ticks; client: this process). ' +
      '÷ REST: against the same procedure over REST (the REST row above it), round by round.',
    '',
    '| Side | ms to the last item | ÷ REST | server CPU ms a call | ÷ REST | client CPU ms a call | ms to the first item |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...Object.keys(figures).map((name) => {
      const isRest = !baseOf[name];
      return (
        `| ${name} | ${span(of(name, 'ms'))} | ${isRest ? '1' : span(ratio(name, 'ms'), 2)} | ${span(of(name, 'serverCpu'))} | ` +
        `${isRest ? '1' : span(ratio(name, 'serverCpu'), 2)} | ${span(of(name, 'clientCpu'))} | ${span(of(name, 'firstMs'))} |`
      );
    }),
  ];
}
