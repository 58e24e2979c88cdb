// A plain tool call's hot path, this checkout's test build against another checkout's (`npm run bench -- --only
// hot-path [--against DIR]`, issue 35: the request a procedure gets on a tool call): a 2026-07-28 `tools/call` of
// UserController_getUser (a procedure: the request it is handed, its decorators, the store) and of sum_numbers (a
// standalone tool, no procedure: the control, whose path neither build changes), beside REST `GET /api/users/1`;
// requests/s and server CPU under load (8 connections), and server CPU at a paced rate neither side saturates. Each
// round alternates the builds (A B, then B A), and the requests within a build; prints min–max (median) over the rounds,
// and this checkout ÷ the other round by round.

import { NextRequest } from 'next/server.js';

/** A rate both builds serve with CPU to spare: CPU per request without the client and server fighting for the cores. */
const PACED_RATE = 150;
/** What browsers and Node's fetch send: the compression policy decides on real-client headers. */
const CLIENT_HEADERS = { 'accept-encoding': 'gzip, deflate' };

const FIGURES = [
  { key: 'restRps', label: 'REST `GET /api/users/1`, requests/s (8 connections)', digits: 0 },
  { key: 'mcpRps', label: 'MCP `tools/call` getUser, requests/s (8 connections)', digits: 0 },
  { key: 'rpsRatio', label: '… MCP ÷ REST, requests/s', digits: 2 },
  { key: 'restCpu', label: 'REST, server CPU ms a request (those runs)', digits: 2 },
  { key: 'mcpCpu', label: 'MCP getUser, server CPU ms a request (those runs)', digits: 2 },
  { key: 'restPaced', label: `REST at ${PACED_RATE} requests/s, server CPU ms a request`, digits: 2 },
  { key: 'mcpPaced', label: `MCP getUser at ${PACED_RATE} requests/s, server CPU ms a request`, digits: 2 },
  { key: 'sumPaced', label: `MCP sum_numbers (standalone tool, the control) at ${PACED_RATE} requests/s, server CPU ms a request`, digits: 2 },
  { key: 'procedurePaced', label: `… getUser − sum_numbers at ${PACED_RATE} requests/s: the procedure's part, ms (last column: this − other, ms)`, digits: 2, delta: true },
];

/** The headers of a 2026-07-28 tools/call as the MCP route sees them (what a tool call's request copies). */
const MCP_HEADERS = {
  host: 'localhost:3290',
  connection: 'keep-alive',
  'content-type': 'application/json',
  'content-length': '212',
  accept: 'application/json, text/event-stream',
  'accept-encoding': 'gzip, deflate',
  'user-agent': 'node',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'UserController_getUser',
};
const STAND_IN_CALLS = 20_000;
const STAND_IN_ROUNDS = 6;

/**
 * The request a procedure is handed on a tool call, alone, in this process (µs of CPU a call, min–max of rounds): as
 * e27e726 made it (vovk's deriveTools stand-in, a plain object, given the MCP request's headers, method, URL, signal
 * and `arrayBuffer` by src/lib/mcp/decorated-request.ts) and as the package's mcp/procedure-call.ts makes it now (a
 * `NextRequest` of the REST URL with those headers and the call's signal, `req.vovk` on it). Each call has a signal of
 * its own, as each HTTP request has. Copies of the two constructions: what they cost, not the code that runs.
 */
function standInFigures() {
  const incoming = new Headers(MCP_HEADERS);
  const url = 'http://localhost:3290/api/users/1';
  const accessors = () => ({ body: async () => null, query: () => ({}), params: () => ({ id: 1 }), meta: () => ({}) });
  const sides = {
    'e27e726: the stand-in object, headers, method, URL, signal assigned': () => {
      const signal = new AbortController().signal;
      const req = { vovk: accessors() };
      const headers = new Headers(incoming);
      headers.set('content-type', 'application/json');
      const arrayBuffer = async () => new TextEncoder().encode('null').buffer;
      return Object.assign(req, { headers, method: 'GET', url, signal, arrayBuffer });
    },
    'now: a NextRequest of the REST URL, the headers, the signal': () => {
      const signal = new AbortController().signal;
      const headers = new Headers(incoming);
      for (const name of ['content-type', 'content-length', 'transfer-encoding', 'content-encoding']) headers.delete(name);
      const request = new NextRequest(url, { method: 'GET', headers, signal });
      request.vovk = accessors();
      return request;
    },
    '… of which the NextRequest without a signal': () => new NextRequest(url, { method: 'GET', headers: new Headers(incoming) }),
  };
  const names = Object.keys(sides);
  const figures = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) for (let i = 0; i < STAND_IN_CALLS / 4; i++) sides[name]();
  for (let round = 0; round < STAND_IN_ROUNDS; round++) {
    for (const name of round % 2 ? names.toReversed() : names) {
      const before = process.cpuUsage();
      for (let i = 0; i < STAND_IN_CALLS; i++) sides[name]();
      const used = process.cpuUsage(before);
      figures[name].push((used.user + used.system) / STAND_IN_CALLS);
    }
  }
  return figures;
}

/** Markdown lines of the figures, `rounds` rounds of `seconds` per load run; `against`: another checkout with a test build. */
export async function hotPathLines(helpers, base, env, { rounds, seconds, against }) {
  const { startServer, load, mcpRequest, median } = helpers;
  const builds = [{ name: 'this checkout', dir: '.' }, ...(against ? [{ name: `--against ${against}`, dir: against }] : [])];
  const figures = builds.map(() => Object.fromEntries(FIGURES.map(({ key }) => [key, []])));
  for (const [index, build] of builds.entries()) build.server = await startServer(base + index, env, undefined, build.dir);
  const withHeaders = (request) => ({ ...request, headers: { ...request.headers, ...CLIENT_HEADERS } });
  const rest = { method: 'GET', headers: CLIENT_HEADERS };
  const getUser = withHeaders(mcpRequest('tools/call', { name: 'UserController_getUser', arguments: { params: { id: 1 } } }, '2026'));
  const sum = withHeaders(mcpRequest('tools/call', { name: 'sum_numbers', arguments: { a: 17, b: 25 } }, '2026'));
  const paced = (request) => ({ ...request, overallRate: PACED_RATE });
  const run = (server, path, request, runSeconds = seconds) => load({ server, path, request }, runSeconds);
  /** Runs `steps` one after another, reversed in odd rounds: the machine's drifts hit each alike. */
  const inTurn = async (round, steps) => {
    const results = new Array(steps.length);
    for (const i of round % 2 ? [...steps.keys()].reverse() : steps.keys()) results[i] = await steps[i]();
    return results;
  };
  try {
    for (const { server } of builds) {
      for (const [path, request, expect] of [['/api/users/1', rest, 'Ada Lovelace'], ['/api/mcp', getUser, 'Ada Lovelace'], ['/api/mcp', sum, '42']]) {
        const text = await (await fetch(server.baseURL + path, request)).text();
        if (!text.includes(expect)) throw new Error(`${path}: unexpected answer ${text.slice(0, 300)}`);
      }
      // Warm-up: every module loaded, V8's code optimized alike.
      await run(server, '/api/users/1', rest, 2);
      await run(server, '/api/mcp', getUser, 2);
      await run(server, '/api/mcp', sum, 2);
    }
    for (let round = 0; round < rounds; round++) {
      for (const index of round % 2 ? [...builds.keys()].reverse() : builds.keys()) {
        const { server } = builds[index];
        const figure = figures[index];
        const [restLoad, mcpLoad] = await inTurn(round, [() => run(server, '/api/users/1', rest), () => run(server, '/api/mcp', getUser)]);
        figure.restRps.push(restLoad.rps);
        figure.mcpRps.push(mcpLoad.rps);
        figure.rpsRatio.push(mcpLoad.rps / restLoad.rps);
        figure.restCpu.push(restLoad.cpuMsPerRequest);
        figure.mcpCpu.push(mcpLoad.cpuMsPerRequest);
        const [restPaced, mcpPaced, sumPaced] = await inTurn(round, [
          () => run(server, '/api/users/1', paced(rest)),
          () => run(server, '/api/mcp', paced(getUser)),
          () => run(server, '/api/mcp', paced(sum)),
        ]);
        figure.restPaced.push(restPaced.cpuMsPerRequest);
        figure.mcpPaced.push(mcpPaced.cpuMsPerRequest);
        figure.sumPaced.push(sumPaced.cpuMsPerRequest);
        figure.procedurePaced.push(mcpPaced.cpuMsPerRequest - sumPaced.cpuMsPerRequest);
        const errors = [restLoad, mcpLoad, restPaced, mcpPaced, sumPaced].reduce((total, result) => total + result.errors, 0);
        if (errors) throw new Error(`${builds[index].name}: ${errors} errors in round ${round + 1}`);
      }
    }
  } finally {
    await Promise.all(builds.map(({ server }) => server.stop()));
  }
  const span = (values, digits) =>
    `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} (${median(values).toFixed(digits)})`;
  const versus = builds.length > 1;
  const standIn = standInFigures();
  return [
    `### A plain tool call's hot path${versus ? `, this checkout against ${against}` : ''} (issue 35): min–max (median) of ${rounds} rounds`,
    '',
    `Each round: ${seconds} s of autocannon per figure (fetch's \`Accept-Encoding\`; 8 connections, then paced at ${PACED_RATE} requests/s)` +
      `${versus ? '; the builds alternate (A B, B A, …), and the requests within a build' : ''}. CPU: the server's user + system time (/proc) ÷ its requests.` +
      `${versus ? ' "this ÷ other" is taken round by round.' : ''}`,
    '',
    `| Figure | ${builds.map((build) => build.name).join(' | ')}${versus ? ' | this ÷ other |' : ' |'}`,
    `| --- | ${builds.map(() => '---:').join(' | ')}${versus ? ' | ---: |' : ' |'}`,
    ...FIGURES.map(({ key, label, digits, delta }) => {
      const cells = figures.map((figure) => span(figure[key], digits));
      const compare = delta ? (value, other) => value - other : (value, other) => value / other;
      if (versus) cells.push(span(figures[0][key].map((value, i) => compare(value, figures[1][key][i])), 2));
      return `| ${label} | ${cells.join(' | ')} |`;
    }),
    '',
    `The request a procedure is handed on a tool call, built alone in the bench process (µs of CPU a call; ${STAND_IN_ROUNDS} rounds of ${STAND_IN_CALLS.toLocaleString('en-US')}, alternated; min–max (median)):`,
    '',
    '| Built as | µs a call |',
    '| --- | ---: |',
    ...Object.entries(standIn).map(([name, values]) => `| ${name} | ${span(values, 1)} |`),
  ];
}
