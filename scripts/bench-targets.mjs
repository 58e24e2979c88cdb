// The MCP door's cost against REST, the figures issue 27 sets targets for (`npm run bench -- --only targets
// [--against DIR]`): tools/call ÷ REST GET (req/s and server CPU; and Next.js's own share of that ratio, a bare route
// answering a POST ÷ a GET), an 8 MiB image's last byte, a large tools/list ÷ a small one, the cold start; each round
// alternates the builds (this checkout's and, with --against, another checkout's test build), and the two sides of each
// ratio within a build, so the machine's drifts hit both alike. Prints min–max (median) over the rounds.

const MIB = 1024 * 1024;
/** A rate both builds serve with CPU to spare: CPU per request without the client and server fighting for the cores. */
const PACED_RATE = 150;
/** What browsers and Node's fetch send: the compression policy decides on real-client headers. */
const CLIENT_HEADERS = { 'accept-encoding': 'gzip, deflate' };

const TARGETS = [
  { key: 'rps', label: 'MCP 2026-07-28 `tools/call` getUser ÷ REST `GET /api/users/1`, requests/s', target: '≥ 0.75', ok: (v) => v >= 0.75 },
  { key: 'cpu', label: 'server CPU per request, MCP ÷ REST (those runs)', target: '≤ 1.35', ok: (v) => v <= 1.35 },
  { key: 'cpuPaced', label: `server CPU per request, MCP ÷ REST, at ${PACED_RATE} requests/s (neither side saturated)`, target: '(reported)' },
  { key: 'cpuMcpMs', label: `… MCP \`tools/call\` at ${PACED_RATE} requests/s, server CPU ms a request`, target: '(reported)' },
  { key: 'floorCpu', label: 'the floor of that in Next.js: a bare route answering the same JSON to a POST of the same body ÷ to a GET, server CPU per request', target: '(the floor)' },
  { key: 'floorRps', label: '… the same floors, requests/s', target: '(the floor)' },
  { key: 'image', label: '8 MiB image, MCP 2026-07-28 ÷ REST, last byte (node:http asking gzip)', target: '≤ 3', ok: (v) => v <= 3 },
  { key: 'imageMs', label: '… the MCP call itself, ms', target: '(reported)' },
  { key: 'list', label: '`tools/list` of the 209-tool server ÷ the 9-tool one (2026-07-28, flat), requests/s', target: '≥ 0.9', ok: (v) => v >= 0.9 },
  { key: 'cold', label: 'cold start to the first `tools/list`, ms', target: '< 1000', ok: (v) => v < 1000 },
  { key: 'coldUncached', label: '… the same start without the code cache (`GATEWAY_COMPILE_CACHE=0`, as a build\'s first start), ms', target: '(reported)' },
];

/**
 * The targets' figures for this checkout and, when `against` names another checkout with a test build, for that one
 * too, over `rounds` rounds (A B, then B A, …) of `seconds` per load run; Markdown lines.
 */
export async function targetLines(helpers, base, env, { rounds, seconds, against }) {
  const { startServer, load, mcpRequest, timedRequest, median } = helpers;
  const builds = [{ name: 'this checkout', dir: '.' }, ...(against ? [{ name: `--against ${against}`, dir: against }] : [])];
  const figures = builds.map(() => Object.fromEntries(TARGETS.map(({ key }) => [key, []])));
  let port = base;
  for (const build of builds) {
    build.gateway = await startServer(port++, env, undefined, build.dir);
    build.small = await startServer(port++, env, undefined, build.dir);
    build.catalogue = await startServer(port++, { ...env, GATEWAY_BENCHMARK_TOOLS: '200' }, undefined, build.dir);
  }
  const coldPorts = port;
  const withHeaders = (request) => ({ ...request, headers: { ...request.headers, ...CLIENT_HEADERS } });
  const call = withHeaders(mcpRequest('tools/call', { name: 'UserController_getUser', arguments: { params: { id: 1 } } }, '2026'));
  const list = withHeaders(mcpRequest('tools/list', {}, '2026'));
  const image = mcpRequest('tools/call', { name: 'BenchController_getLargeImage', arguments: { query: { mib: '8' } } }, '2026');
  const run = (server, path, request, runSeconds = seconds) => load({ server, path, request }, runSeconds);
  /** `first()` and `second()`, one after the other, `second` first in odd rounds: the machine's drifts hit both alike. */
  const inTurn = async (round, first, second) => {
    if (round % 2 === 0) return [await first(), await second()];
    const later = await second();
    return [await first(), later];
  };
  try {
    for (const build of builds) {
      // Warm-up: every module loaded, the listings cached, V8's code optimized alike.
      await run(build.gateway, '/api/users/1', { method: 'GET', headers: CLIENT_HEADERS }, 2);
      await run(build.gateway, '/api/mcp', call, 2);
      await run(build.small, '/api/mcp?tools=all', list, 1);
      await run(build.catalogue, '/api/mcp?tools=all', list, 1);
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
      for (const index of order) {
        const build = builds[index];
        const figure = figures[index];
        const [rest, mcp] = await inTurn(
          round,
          () => run(build.gateway, '/api/users/1', { method: 'GET', headers: CLIENT_HEADERS }),
          () => run(build.gateway, '/api/mcp', call),
        );
        figure.rps.push(mcp.rps / rest.rps);
        figure.cpu.push(mcp.cpuMsPerRequest / rest.cpuMsPerRequest);
        const paced = (request) => ({ ...request, overallRate: PACED_RATE });
        const [restPaced, mcpPaced] = await inTurn(
          round,
          () => run(build.gateway, '/api/users/1', paced({ method: 'GET', headers: CLIENT_HEADERS })),
          () => run(build.gateway, '/api/mcp', paced(call)),
        );
        figure.cpuPaced.push(mcpPaced.cpuMsPerRequest / restPaced.cpuMsPerRequest);
        figure.cpuMcpMs.push(mcpPaced.cpuMsPerRequest);
        if (index === 0) {
          // The bare floors exist in this checkout's test build (an older build may lack the POST one).
          const [getFloor, postFloor] = await inTurn(
            round,
            () => run(build.gateway, '/api/bench-floor/rest', { method: 'GET', headers: CLIENT_HEADERS }),
            () => run(build.gateway, '/api/bench-floor/rest', withHeaders({ ...call, headers: { 'content-type': 'application/json' } })),
          );
          figure.floorCpu.push(postFloor.cpuMsPerRequest / getFloor.cpuMsPerRequest);
          figure.floorRps.push(postFloor.rps / getFloor.rps);
        }
        const [large, few] = await inTurn(
          round,
          () => run(build.catalogue, '/api/mcp?tools=all', list),
          () => run(build.small, '/api/mcp?tools=all', list),
        );
        figure.list.push(large.rps / few.rps);
        const restImage = [];
        const mcpImage = [];
        for (let i = 0; i < 5; i++) {
          const [restMs, mcpMs] = await inTurn(
            round + i,
            () => timedRequest(`${build.gateway.baseURL}/api/bench/image?mib=8`, { headers: CLIENT_HEADERS }),
            () => timedRequest(`${build.gateway.baseURL}/api/mcp`, withHeaders(image)),
          );
          restImage.push(restMs);
          mcpImage.push(mcpMs);
        }
        figure.image.push(median(mcpImage) / median(restImage));
        figure.imageMs.push(median(mcpImage));
        const coldStart = async (extraEnv) => {
          const cold = await startServer(coldPorts + index, { ...env, ...extraEnv }, undefined, build.dir);
          await cold.stop();
          return cold.coldStartMs;
        };
        const [cached, uncached] = await inTurn(round, () => coldStart({}), () => coldStart({ GATEWAY_COMPILE_CACHE: '0' }));
        figure.cold.push(cached);
        figure.coldUncached.push(uncached);
      }
    }
  } finally {
    await Promise.all(builds.flatMap((build) => [build.gateway, build.small, build.catalogue].map((server) => server.stop())));
  }
  const span = (values, digits) =>
    `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} (${median(values).toFixed(digits)})`;
  return [
    `### The MCP door's targets (issue 27): min–max of ${rounds} rounds (median)`,
    '',
    `Each round: ${seconds} s of autocannon per figure (8 connections; fetch's \`Accept-Encoding\`), five 8 MiB downloads each way, one cold start with the build's code cache and one without${builds.length > 1 ? '; the builds alternate (A B, B A, …)' : ''}. The image payload is ${8 * MIB} bytes.`,
    '',
    `| Figure | ${builds.map((build) => build.name).join(' | ')} | target |`,
    `| --- | ${builds.map(() => '---:').join(' | ')} | --- |`,
    ...TARGETS.map(({ key, label, target, ok }) => {
      const digits = key.startsWith('cold') || key === 'imageMs' ? 0 : 2;
      const cells = figures.map((figure) => (figure[key].length ? span(figure[key], digits) : 'not measured'));
      const met = ok && figures[0][key].length ? (figures[0][key].every(ok) ? ' ✓' : figures[0][key].some(ok) ? ' (some rounds)' : ' ✗') : '';
      return `| ${label} | ${cells.join(' | ')} | ${target}${met} |`;
    }),
  ];
}
