// The MCP door's CPU profile (`npm run bench -- --only profile`): V8's sampling profiler in the server over a window of
// load (none of the start-up), per scenario — a trivial tools/call, the same procedure over REST, a 209-tool
// tools/list — its time split by where the code comes from (the server's chunks mapped back to their sources through
// the build's source maps). Writes each .cpuprofile under test-reports/profiles/ (open it in Chrome DevTools or
// speedscope for the flame graph) and prints the split.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AnyMap, originalPositionFor } from '@jridgewell/trace-mapping';
import autocannon from 'autocannon';

const LOAD_SECONDS = 8;
const CONNECTIONS = 8;
const OUT_DIR = 'test-reports/profiles';

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
/** What a 2026-07-28 client sends for `method` (as the official v2 client does), with fetch's Accept-Encoding. */
function modern(method, params, name) {
  return {
    method: 'POST',
    path: '/api/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'accept-encoding': 'gzip, deflate',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
  };
}

const SCENARIOS = [
  { name: 'tools-call', title: 'MCP tools/call UserController_getUser (2026-07-28)', request: modern('tools/call', { name: 'UserController_getUser', arguments: { params: { id: 1 } } }, 'UserController_getUser') },
  { name: 'rest-get', title: 'REST GET /api/users/1', request: { method: 'GET', path: '/api/users/1', headers: { 'accept-encoding': 'gzip, deflate' } } },
  // As the targets bench lists them (every toolset, flat): the 209-tool server's, and the 9-tool one's beside it.
  { name: 'tools-list', title: 'MCP tools/list, 209-tool server (2026-07-28)', request: { ...modern('tools/list', {}), path: '/api/mcp?tools=all' }, catalogue: true },
  { name: 'tools-list-small', title: 'MCP tools/list, 9-tool server (2026-07-28)', request: { ...modern('tools/list', {}), path: '/api/mcp?tools=all' } },
  // One connection: an 8 MiB answer at a time, as a client fetching an image waits for it.
  { name: 'image-8mib', title: 'MCP tools/call BenchController_getLargeImage, 8 MiB (2026-07-28)', request: modern('tools/call', { name: 'BenchController_getLargeImage', arguments: { query: { mib: '8' } } }, 'BenchController_getLargeImage'), connections: 1 },
  { name: 'rest-image-8mib', title: 'REST GET /api/bench/image?mib=8', request: { method: 'GET', path: '/api/bench/image?mib=8', headers: { 'accept-encoding': 'gzip, deflate' } }, connections: 1 },
];

/** Where a frame's code comes from: a package, a folder of ours, Node's internals, or the engine. */
function categoryOf(source, functionName) {
  if (!source) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)' || functionName === '(idle)') return functionName;
    return `native (${functionName})`;
  }
  if (source.startsWith('node:')) {
    if (/webstreams/.test(source)) return 'node: Web streams';
    if (/async_hooks|async_local/.test(source)) return 'node: async hooks';
    if (/_http|http_|undici|net|stream_base/.test(source)) return 'node: HTTP and sockets';
    return `node: ${source.replace(/^node:(internal\/)?/, '')}`;
  }
  const pkg = decodeURIComponent(source).match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1];
  const ours = source.replace(/^(\.\.\/)+/, '').match(/^(?:\[project\]\/)?src\/([^/]+(?:\/[^/]+)?)\//);
  if (ours) return `ours: src/${ours[1]}`;
  if (/turbopack/.test(source)) return 'next (turbopack runtime)';
  return `other (${path.basename(source)})`;
}

/**
 * Maps a frame to its source: a frame of a server chunk (the bundled app: our code and the packages it bundles)
 * through the chunk's source map (cached per chunk); any other frame keeps its URL (Next.js, externals, Node).
 */
function sourceMapper() {
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let map;
      try {
        if (fs.existsSync(`${file}.map`)) map = new AnyMap(fs.readFileSync(`${file}.map`, 'utf8'));
      } catch {
        map = undefined;
      }
      maps.set(file, map);
    }
    return maps.get(file);
  };
  return ({ url, lineNumber, columnNumber }) => {
    if (!url) return undefined;
    const file = url.startsWith('file://') ? fileURLToPath(url) : url;
    if (!/\/\.next[^/]*\/server\/chunks\//.test(file)) return file;
    const map = mapOf(file);
    const original = map && originalPositionFor(map, { line: lineNumber + 1, column: columnNumber });
    return original?.source ?? file;
  };
}

/** The profile's busy time split by category (self time), and its heaviest functions. */
function summarize(profile, sourceOf) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map();
  profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byCategory = new Map();
  const byFunction = new Map();
  let busy = 0;
  for (const [id, time] of selfTime) {
    const { callFrame } = nodes.get(id);
    if (callFrame.functionName === '(idle)') continue;
    const source = sourceOf(callFrame);
    const category = categoryOf(source, callFrame.functionName);
    busy += time;
    byCategory.set(category, (byCategory.get(category) ?? 0) + time);
    const where = source ? decodeURIComponent(source).replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '') : '';
    const key = `${callFrame.functionName || '(anonymous)'} — ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  }
  // Inclusive time of our own functions: each sample counts once for every function of ours on its stack.
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const ownFrame = new Map();
  for (const node of profile.nodes) {
    const source = sourceOf(node.callFrame);
    if (categoryOf(source, node.callFrame.functionName).startsWith('ours:')) {
      ownFrame.set(node.id, `${node.callFrame.functionName || '(anonymous)'} — ${source.replace(/^(\.\.\/)+/, '')}`);
    }
  }
  const inclusive = new Map();
  for (const [id, time] of selfTime) {
    if (nodes.get(id).callFrame.functionName === '(idle)') continue;
    const onStack = new Set();
    for (let at = id; at !== undefined; at = parents.get(at)) if (ownFrame.has(at)) onStack.add(ownFrame.get(at));
    for (const key of onStack) inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
  const top = (map, count) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count);
  return { busy, categories: top(byCategory, 24), functions: top(byFunction, 20), ours: top(inclusive, 15) };
}

/** The Markdown of one profile's split: `requests` the load made (for the per-request figures). */
function splitLines(profile, sourceOf, requests) {
  const { busy, categories, functions, ours } = summarize(profile, sourceOf);
  return [
    `main-thread CPU ${(busy / 1000 / requests).toFixed(2)} ms a request. Self time by origin:`,
    '',
    '| Origin | Share | ms a request |',
    '| --- | ---: | ---: |',
    ...categories.map(([category, time]) => `| ${category} | ${((100 * time) / busy).toFixed(1)} % | ${(time / 1000 / requests).toFixed(3)} |`),
    '',
    'Heaviest functions (self time):',
    '',
    ...functions.map(([name, time]) => `- ${((100 * time) / busy).toFixed(1)} % ${name}`),
    '',
    'Our functions, inclusive (what they run, callees in packages included):',
    '',
    ...ours.map(([name, time]) => `- ${((100 * time) / busy).toFixed(1)} % (${(time / 1000 / requests).toFixed(3)} ms a request) ${name}`),
    '',
  ];
}

async function post(baseURL, route) {
  const response = await fetch(`${baseURL}/api/bench/${route}`, { method: 'POST' });
  if (!response.ok) throw new Error(`${route} answered ${response.status}`);
  return response.json();
}

const load = (baseURL, { request, connections = CONNECTIONS }, seconds) =>
  autocannon({ url: baseURL, connections, duration: seconds, requests: [request] });

/** Every scenario's profile, as Markdown lines. */
export async function profileLines({ startServer }, base, env, match) {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const servers = { plain: await startServer(base, env), catalogue: await startServer(base + 1, { ...env, GATEWAY_BENCHMARK_TOOLS: '200' }) };
  const sourceOf = sourceMapper();
  const lines = ['### Where the server\'s CPU goes (profile)', ''];
  try {
    for (const scenario of SCENARIOS.filter(({ name }) => !match || match.split('|').includes(name))) {
      const server = scenario.catalogue ? servers.catalogue : servers.plain;
      await load(server.baseURL, scenario, 2); // warm: every module loaded, the listing cached
      await post(server.baseURL, 'profile/start');
      const result = await load(server.baseURL, scenario, LOAD_SECONDS);
      const profile = await post(server.baseURL, 'profile/stop');
      fs.writeFileSync(path.join(OUT_DIR, `${scenario.name}.cpuprofile`), JSON.stringify(profile));
      const requests = result.requests.total;
      fs.writeFileSync(path.join(OUT_DIR, `${scenario.name}.requests`), String(requests));
      lines.push(`#### ${scenario.title}`, '', `${requests} requests in ${LOAD_SECONDS} s (${scenario.connections ?? CONNECTIONS} connection(s)); ${splitLines(profile, sourceOf, requests).join('\n')}`);
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
  lines.push(`Profiles: ${OUT_DIR}/<scenario>.cpuprofile (Chrome DevTools → Performance → Load profile, or speedscope.app, for the flame graph).`);
  return lines;
}

// Run directly (`node scripts/bench-profile.mjs test-reports/profiles/tools-call.cpuprofile …`): the split of saved
// profiles again, e.g. after changing the categories (the build that made them must still be in place).
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const sourceOf = sourceMapper();
  for (const file of process.argv.slice(2)) {
    const requestsFile = file.replace(/\.cpuprofile$/, '.requests');
    const requests = fs.existsSync(requestsFile) ? Number(fs.readFileSync(requestsFile, 'utf8')) : 1;
    console.log([`#### ${path.basename(file)}`, '', ...splitLines(JSON.parse(fs.readFileSync(file, 'utf8')), sourceOf, requests)].join('\n'));
  }
}
