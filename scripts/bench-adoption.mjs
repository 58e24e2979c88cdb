// The door's cost in an adopting app beside the reference app, in one run (`npm run bench -- --only adoption`): a fresh
// Vovk app made as the adoption e2e makes it (e2e/support/fresh-app.ts: the packed tarball installed, the README
// quickstart applied), plus a bench-only image procedure, served by a plain `next start` and by the package's server
// entry (`vovk-mcp-gateway start`); the reference app's test build under that entry (server/gateway.mjs) with patches/. Per app: 2026-07-28 `tools/call` of getUser ÷ REST `GET /api/users/1` (requests/s
// and server CPU, under load and paced), the door's own CPU ms (MCP − REST, paced), `tools/list` (flat) requests/s and
// CPU, and an 8 MiB image's last byte over MCP ÷ REST. Rounds alternate the apps (A B, B A); min–max (median). Also the
// tarball's size and the fresh app's pack, install and build times.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adoptGateway, buildApp, createFreshApp, startApp } from '../e2e/support/fresh-app.ts';

const PACED_RATE = 150;
const CLIENT_HEADERS = { 'accept-encoding': 'gzip, deflate' };

/** The bench-only procedure the fresh app gets beside its two controllers: the same 8 MiB PNG-typed body as the reference's. */
const MEDIA_CONTROLLER = `import { get, prefix, procedure } from 'vovk';

const image = new Uint8Array(8 * 1024 * 1024);
for (let i = 0; i < image.length; i += 65536) globalThis.crypto.getRandomValues(image.subarray(i, i + 65536));

@prefix('bench')
export default class MediaController {
  @get('image')
  static getLargeImage = procedure({}).handle(() => new Response(image, { headers: { 'Content-Type': 'image/png' } }));
}
`;

const FIGURES = [
  { key: 'restRps', label: 'REST `GET /api/users/1`, requests/s (8 connections)', digits: 0 },
  { key: 'mcpRps', label: 'MCP 2026-07-28 `tools/call` getUser, requests/s (8 connections)', digits: 0 },
  { key: 'rpsRatio', label: '… MCP ÷ REST, requests/s', digits: 2 },
  { key: 'cpuRatio', label: '… MCP ÷ REST, server CPU a request (those runs)', digits: 2 },
  { key: 'restPaced', label: `REST at ${PACED_RATE} requests/s, server CPU ms a request`, digits: 2 },
  { key: 'mcpPaced', label: `MCP getUser at ${PACED_RATE} requests/s, server CPU ms a request`, digits: 2 },
  { key: 'doorPaced', label: `… the door's own: MCP − REST at ${PACED_RATE} requests/s, ms`, digits: 2 },
  { key: 'listRps', label: '`tools/list` (2026-07-28, flat, fetch\'s Accept-Encoding), requests/s (8 connections)', digits: 0 },
  { key: 'listCpu', label: '… server CPU ms a listing', digits: 2 },
  { key: 'imageRatio', label: '8 MiB image, MCP 2026-07-28 ÷ REST, last byte (node:http asking gzip; median of 5)', digits: 2 },
  { key: 'imageMs', label: '… the MCP call itself, ms', digits: 0 },
];

/** Markdown lines of the figures over `rounds` rounds of `seconds` per load run. */
export async function adoptionLines(helpers, base, env, { rounds, seconds }) {
  const { startServer, load, mcpRequest, timedRequest, median } = helpers;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vovk-adoption-bench-'));
  const timings = {};
  const tarballKiB = fs.statSync(createFreshApp(dir, timings)).size / 1024;
  adoptGateway(dir);
  fs.mkdirSync(path.join(dir, 'src/modules/media'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src/modules/media/media-controller.ts'), MEDIA_CONTROLLER);
  const route = path.join(dir, 'src/app/api/mcp/route.ts');
  // The reference app's benchmark raises MCP_MAX_MEDIA_BYTES to 16 MiB: the same option here (4 MiB by default).
  const routeSource = fs
    .readFileSync(route, 'utf8')
    .replace('PostRPC: PostController', 'PostRPC: PostController, MediaRPC: MediaController')
    .replace('createMcpGateway({', 'createMcpGateway({\n  mcpMaxMediaBytes: 16 * 1024 * 1024,');
  fs.writeFileSync(route, `import MediaController from '@/modules/media/media-controller';\n${routeSource}`);
  const segment = path.join(dir, 'src/app/api/[[...vovk]]/route.ts');
  const segmentSource = fs.readFileSync(segment, 'utf8').replace('PostRPC: PostController,', 'PostRPC: PostController,\n  MediaRPC: MediaController,');
  fs.writeFileSync(segment, `import MediaController from '../../../modules/media/media-controller';\n${segmentSource}`);
  buildApp(dir, timings, 'build');

  const adopting = { tool: 'UserRPC_getUser', image: 'MediaRPC_getLargeImage', arguments: { params: { id: '1' } } };
  const apps = [
    { name: 'adopting app, plain `next start`', ...adopting },
    { name: 'adopting app, `vovk-mcp-gateway start`', ...adopting },
    { name: 'reference app (test build, its entry)', tool: 'UserController_getUser', image: 'BenchController_getLargeImage', arguments: { params: { id: 1 } } },
  ];
  const figures = apps.map(() => Object.fromEntries(FIGURES.map(({ key }) => [key, []])));
  apps[0].server = await startApp(dir, base);
  apps[1].server = await startApp(dir, base + 1, 'vovk-mcp-gateway start');
  apps[2].server = await startServer(base + 2, env);
  const withHeaders = (request) => ({ ...request, headers: { ...request.headers, ...CLIENT_HEADERS } });
  const rest = { method: 'GET', headers: CLIENT_HEADERS };
  const paced = (request) => ({ ...request, overallRate: PACED_RATE });
  const run = (server, urlPath, request, runSeconds = seconds) => load({ server, path: urlPath, request }, runSeconds);
  const inTurn = async (round, steps) => {
    const results = new Array(steps.length);
    for (const i of round % 2 ? [...steps.keys()].reverse() : steps.keys()) results[i] = await steps[i]();
    return results;
  };
  const listed = {};
  try {
    for (const app of apps) {
      app.call = withHeaders(mcpRequest('tools/call', { name: app.tool, arguments: app.arguments }, '2026'));
      app.list = withHeaders(mcpRequest('tools/list', {}, '2026'));
      app.imageCall = mcpRequest('tools/call', { name: app.image, arguments: app.image.startsWith('Bench') ? { query: { mib: '8' } } : {} }, '2026');
      app.imagePath = app.image.startsWith('Bench') ? '/api/bench/image?mib=8' : '/api/bench/image';
      const answer = await (await fetch(app.server.baseURL + '/api/mcp', app.call)).text();
      if (!answer.includes('Ada Lovelace')) throw new Error(`${app.name}: unexpected tools/call answer ${answer.slice(0, 300)}`);
      const imageAnswer = await (await fetch(app.server.baseURL + '/api/mcp', app.imageCall)).text();
      if (!imageAnswer.includes('"type":"image"')) throw new Error(`${app.name}: unexpected image answer ${imageAnswer.slice(0, 300)}`);
      const listing = JSON.parse(await (await fetch(`${app.server.baseURL}/api/mcp?tools=all`, mcpRequest('tools/list', {}, '2026'))).text());
      listed[app.name] = listing.result.tools.length;
      await run(app.server, '/api/users/1', rest, 2);
      await run(app.server, '/api/mcp', app.call, 2);
      await run(app.server, '/api/mcp?tools=all', app.list, 1);
    }
    for (let round = 0; round < rounds; round++) {
      for (const index of round % 2 ? [...apps.keys()].reverse() : apps.keys()) {
        const { server, call, list, imageCall, imagePath } = apps[index];
        const figure = figures[index];
        const [restLoad, mcpLoad] = await inTurn(round, [() => run(server, '/api/users/1', rest), () => run(server, '/api/mcp', call)]);
        figure.restRps.push(restLoad.rps);
        figure.mcpRps.push(mcpLoad.rps);
        figure.rpsRatio.push(mcpLoad.rps / restLoad.rps);
        figure.cpuRatio.push(mcpLoad.cpuMsPerRequest / restLoad.cpuMsPerRequest);
        const [restPaced, mcpPaced] = await inTurn(round, [() => run(server, '/api/users/1', paced(rest)), () => run(server, '/api/mcp', paced(call))]);
        figure.restPaced.push(restPaced.cpuMsPerRequest);
        figure.mcpPaced.push(mcpPaced.cpuMsPerRequest);
        figure.doorPaced.push(mcpPaced.cpuMsPerRequest - restPaced.cpuMsPerRequest);
        const listing = await run(server, '/api/mcp?tools=all', list);
        figure.listRps.push(listing.rps);
        figure.listCpu.push(listing.cpuMsPerRequest);
        const restImage = [];
        const mcpImage = [];
        for (let i = 0; i < 5; i++) {
          const [restMs, mcpMs] = await inTurn(round + i, [
            () => timedRequest(server.baseURL + imagePath, { headers: CLIENT_HEADERS }),
            () => timedRequest(`${server.baseURL}/api/mcp`, withHeaders(imageCall)),
          ]);
          restImage.push(restMs);
          mcpImage.push(mcpMs);
        }
        figure.imageRatio.push(median(mcpImage) / median(restImage));
        figure.imageMs.push(median(mcpImage));
        const errors = [restLoad, mcpLoad, restPaced, mcpPaced, listing].reduce((total, result) => total + result.errors, 0);
        if (errors) throw new Error(`${apps[index].name}: ${errors} errors in round ${round + 1}`);
      }
    }
  } finally {
    await Promise.all(apps.map(({ server }) => server?.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const span = (values, digits) =>
    `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)} (${median(values).toFixed(digits)})`;
  const seconds1 = (ms) => `${(ms / 1000).toFixed(1)} s`;
  return [
    `### The door in an adopting app beside the reference app (issue 36): min–max (median) of ${rounds} rounds`,
    '',
    `Each round: ${seconds} s of autocannon per figure (8 connections, then paced at ${PACED_RATE} requests/s; fetch's \`Accept-Encoding\`), five 8 MiB downloads each way; the apps alternate (A B, B A, …), and the two sides of each ratio within an app. ` +
      `Tools listed: ${Object.entries(listed).map(([name, count]) => `${name} ${count}`).join(', ')}.`,
    '',
    `| Figure | ${apps.map((app) => app.name).join(' | ')} |`,
    `| --- | ${apps.map(() => '---:').join(' | ')} |`,
    ...FIGURES.map(({ key, label, digits }) => `| ${label} | ${figures.map((figure) => span(figure[key], digits)).join(' | ')} |`),
    '',
    `The package's tarball: ${tarballKiB.toFixed(0)} KiB. The fresh app: pack ${seconds1(timings.pack)}, ` +
      `install ${seconds1(timings.install)} (\`npm install --prefer-offline\`, the npm cache warm, better-sqlite3's native build copied), \`next build\` ${seconds1(timings.build)}.`,
  ];
}
