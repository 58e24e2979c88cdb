// The result budget's cost (`npm run bench -- --only budget`, issue 37): the same calls against two test-build servers,
// A with the default budget (MCP_RESULT_BUDGET_TOKENS=25000) and B with a budget no result reaches (nothing is ever
// counted or cut), each holding 10,000 imported tasks, by the official v2 client (2026-07-28): a small result
// (UserController_getUser), a result under the budget but over its size in bytes, so that A counts its tokens (150
// tasks), and the 10,000-row list (A cuts it to what fits, B sends it whole). Each round runs every call `calls` times on
// A then B (then B then A): median ms, server CPU ms per call (/proc, 10 ms ticks), the result's size; A ÷ B round by round.

const IMPORTED = 10_000;
const CALLS = { small: 40, under: 20, list: 6 };
const WARM_UP_CALLS = 3;
const UNLIMITED = String(1_000_000_000);

/** The calls measured: name → tool arguments and how many calls a round makes. */
const CASES = [
  { name: 'small result (`UserController_getUser`, ≈ 150 B)', tool: 'UserController_getUser', args: { params: { id: 1 } }, calls: CALLS.small },
  { name: 'under budget, counted (`TaskController_listTasks` limit 150)', tool: 'TaskController_listTasks', args: { query: { limit: 150 } }, calls: CALLS.under },
  { name: '10,000-row list (`TaskController_listTasks`)', tool: 'TaskController_listTasks', args: {}, calls: CALLS.list },
];

/** Fills a server's board with 10,000 tasks through the product's own import. */
async function importTasks(server) {
  const rows = Array.from({ length: IMPORTED }, (_, index) => ({ title: `Imported task ${index}` }));
  const response = await fetch(`${server.baseURL}/api/tasks/import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rows }),
  });
  if (!response.ok) throw new Error(`import: HTTP ${response.status}`);
}

/** `calls` sequential calls: median ms, server CPU ms per call, and the last result's JSON size. */
async function measure(server, client, { tool, args, calls }, { cpuMs, median }) {
  const ms = [];
  let bytes = 0;
  const before = cpuMs(server.pid);
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    const result = await client.callTool({ name: tool, arguments: args });
    ms.push(performance.now() - started);
    if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result).slice(0, 300)}`);
    bytes = JSON.stringify(result).length;
  }
  return { ms: median(ms), cpu: (cpuMs(server.pid) - before) / calls, bytes };
}

/** The figures, as Markdown lines. */
export async function budgetLines(helpers, port, env, { rounds }) {
  const { startServer, officialClient, median } = helpers;
  const servers = {
    A: await startServer(port, env),
    B: await startServer(port + 1, { ...env, MCP_RESULT_BUDGET_TOKENS: UNLIMITED }),
  };
  const figures = Object.fromEntries(CASES.map(({ name }) => [name, { A: [], B: [] }]));
  try {
    await Promise.all(Object.values(servers).map(importTasks));
    const clients = { A: await officialClient(servers.A.baseURL, 2), B: await officialClient(servers.B.baseURL, 2) };
    try {
      for (const side of ['A', 'B']) {
        for (const each of CASES) for (let i = 0; i < WARM_UP_CALLS; i++) await clients[side].callTool({ name: each.tool, arguments: each.args });
      }
      for (let round = 0; round < rounds; round++) {
        for (const each of CASES) {
          for (const side of round % 2 ? ['B', 'A'] : ['A', 'B']) figures[each.name][side].push(await measure(servers[side], clients[side], each, helpers));
        }
      }
    } finally {
      await Promise.all(Object.values(clients).map((client) => client.close()));
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  const span = (values, digits = 1) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} (${median(values).toFixed(digits)})`;
  const of = (name, side, key) => figures[name][side].map((round) => round[key]);
  const ratio = (name, key) => figures[name].A.map((round, i) => round[key] / figures[name].B[i][key]);
  const kib = (name, side) => `${(median(of(name, side, 'bytes')) / 1024).toFixed(1)}`;
  return [
    `### The result budget's cost (issue 37): A = budget 25,000 tokens, B = a budget nothing reaches; min–max (median) of ${rounds} rounds`,
    '',
    `Each round: every call ${Object.values(CALLS).join('/')} times on A then B (B then A on odd rounds), after ${WARM_UP_CALLS} calls each to warm up; ` +
      'official v2 client (2026-07-28), 10,000 imported tasks on each server. ms: median of a round; CPU: the server\'s, per call.',
    '',
    '| Call | ms, A | ms, B | ms A ÷ B | server CPU ms, A | server CPU ms, B | CPU A ÷ B | result KiB, A | result KiB, B |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...CASES.map(
      ({ name }) =>
        `| ${name} | ${span(of(name, 'A', 'ms'))} | ${span(of(name, 'B', 'ms'))} | ${span(ratio(name, 'ms'), 2)} | ${span(of(name, 'A', 'cpu'))} | ` +
        `${span(of(name, 'B', 'cpu'))} | ${span(ratio(name, 'cpu'), 2)} | ${kib(name, 'A')} | ${kib(name, 'B')} |`,
    ),
  ];
}
