// The cache-hints benchmark (`npm run bench -- --only cache-hints [--turns N --turn-seconds S]`): the bytes a 2026-07-28
// client downloads over an agent session of N turns when it honours the answers' `ttlMs`, against one that fetches
// everything again each turn (what every client had to do while every answer said `ttlMs: 0`).

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

/** What a client fetches at each turn of the session: the server, the lists, and the context it shows the model. */
const turnRequests = (taskId) => [
  ['server/discover', {}],
  ['tools/list', {}],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['resources/read', { uri: 'vovk://gateway/api/board' }],
  ['resources/read', { uri: `vovk://gateway/api/tasks/${taskId}` }],
  ['resources/read', { uri: 'vovk://gateway/api/text/greeting' }],
];

/** One 2026-07-28 request to `url`: the result and how many bytes its body had (decoded, as the client reads it). */
async function request(url, method, params) {
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': method,
    ...(params.uri ? { 'Mcp-Name': params.uri } : {}),
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } });
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  const message = JSON.parse(text.startsWith('{') ? text : text.match(/^data: (.*)$/m)[1]);
  if (!message.result) throw new Error(`${method} answered ${text.slice(0, 200)}`);
  return { result: message.result, bytes: Buffer.byteLength(text) };
}

/**
 * A client that keeps each cacheable answer as its hints allow: for `ttlMs` after it came, keyed by method and
 * parameters (the spec's cache key), on a clock of its own (`now`), so that a session of minutes runs in a second.
 */
function cachingClient(url, honoursHints) {
  const kept = new Map();
  const totals = { bytes: 0, requests: 0 };
  return {
    totals,
    async fetch(method, params, now) {
      const key = `${method} ${JSON.stringify(params)}`;
      const hit = kept.get(key);
      if (honoursHints && hit && now < hit.freshUntil) return hit.result;
      const { result, bytes } = await request(url, method, params);
      totals.bytes += bytes;
      totals.requests++;
      if (honoursHints && result.ttlMs > 0) kept.set(key, { result, freshUntil: now + result.ttlMs });
      return result;
    },
  };
}

/** The bytes and requests of an N-turn session against `url`, with and without honouring the hints. */
async function session(url, taskId, { turns, turnMs }) {
  const clients = { without: cachingClient(url, false), with: cachingClient(url, true) };
  for (let turn = 0; turn < turns; turn++) {
    for (const client of Object.values(clients)) {
      for (const [method, params] of turnRequests(taskId)) await client.fetch(method, params, turn * turnMs);
    }
  }
  return { without: clients.without.totals, with: clients.with.totals };
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The benchmark's lines: one row per catalogue (the demo's, and 200 more tools listed in full). */
export async function cacheHintLines({ startServer }, base, env, { turns = 20, turnSeconds = 15 } = {}) {
  const options = { turns, turnMs: turnSeconds * 1000 };
  const catalogues = [
    ['the demo (default surface)', {}, ''],
    ['200 more tools, listed in full (`?tools=all`)', { GATEWAY_BENCHMARK_TOOLS: '200' }, '?tools=all'],
  ];
  const rows = [];
  for (const [index, [label, extra, query]] of catalogues.entries()) {
    const server = await startServer(base + index, { ...env, ...extra });
    try {
      const created = await fetch(`${server.baseURL}/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Cache-hints bench task' }),
      });
      const { id } = await created.json();
      const figures = await session(`${server.baseURL}/api/mcp${query}`, id, options);
      rows.push(
        `| ${label} | ${kib(figures.without.bytes)} (${figures.without.requests}) | ${kib(figures.with.bytes)} (${figures.with.requests}) | ` +
          `${(figures.without.bytes / figures.with.bytes).toFixed(1)}× |`,
      );
    } finally {
      await server.stop();
    }
  }
  return [
    `A ${turns}-turn agent session, a turn every ${turnSeconds} s (the client's own clock): each turn server/discover, tools/list, ` +
      'resources/list, resources/templates/list, and reads of the board, a task and the greeting, over 2026-07-28 with auth off ' +
      '(MCP_LIST_TTL_MS default: 5 min; the demo\'s data resources 5 s, its fixed ones 1 h). Body bytes as the client reads them ' +
      '(uncompressed), requests in parentheses:',
    '',
    '| Catalogue | every answer again (ttlMs 0) | hints honoured | ratio |',
    '| --- | ---: | ---: | ---: |',
    ...rows,
  ];
}
