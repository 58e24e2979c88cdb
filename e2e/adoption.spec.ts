// Adoption, tested rather than assumed: a fresh Vovk app (e2e/adoption-app: Next.js 16, vovk 3.7, TypeScript 5.9, its
// own [[...vovk]] segment, two controllers written as Vovk's docs write them) installs the packed package, is built and
// started as it is, then takes the README quickstart's files exactly as the README writes them (and `@resource()` on one
// GET procedure, as the quickstart says), is built with `next build` and started with a plain `next start`. Its REST
// answers are the ones it gave before; its procedures are tools in both eras; search, call_tool, code mode, a resource
// and the explorer page work; `npx vovk-mcp-gateway tools lock|check` holds its catalogue to a contract.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { selectingURL } from './support/catalogue';
import { adoptGateway, buildApp, createFreshApp, quickstartFiles, type RunningApp, startApp, type Timings } from './support/fresh-app';
import { connect, eras, using } from './support/mcp';
import { e2ePort } from './support/server';

const port = e2ePort + 340;
const baseURL = `http://localhost:${port}`;

/** The requests whose answers must not change when the gateway is added (method, path, JSON body). */
const restRequests: Array<[string, string, unknown?]> = [
  ['GET', '/api/users'],
  ['GET', '/api/users?search=ada'],
  ['GET', '/api/users/2'],
  ['GET', '/api/users/9'],
  ['PUT', '/api/users/1', { name: 'Ada King' }],
  ['PUT', '/api/users/1', { email: 'not an email' }],
  ['GET', '/api/posts?authorId=2'],
  ['GET', '/api/posts/titles'],
];

interface RestAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** What the app answers to every request of `restRequests`, in order. */
async function restAnswers(): Promise<RestAnswer[]> {
  const answers: RestAnswer[] = [];
  for (const [method, url, body] of restRequests) {
    const init = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    const response = await fetch(`${baseURL}${url}`, init);
    answers.push({ status: response.status, contentType: response.headers.get('content-type'), body: await response.text() });
  }
  return answers;
}

let appDir: string;
let server: RunningApp | undefined;
let before: RestAnswer[];
const timings: Timings = {};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vovk-adoption-'));
  createFreshApp(appDir, timings);
  buildApp(appDir, timings, 'build without the gateway');
  server = await startApp(appDir, port);
  before = await restAnswers();
  await server.stop();
  adoptGateway(appDir);
  buildApp(appDir, timings, 'build with the gateway');
  server = await startApp(appDir, port);
});

test.afterAll(async () => {
  await server?.stop();
  console.log(`[adoption] ${Object.entries(timings).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
  if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
});

test('the README quickstart names the files an adopter writes: the route, the config wrapper, the explorer page', () => {
  expect([...quickstartFiles().keys()]).toEqual(['src/app/api/mcp/route.ts', 'next.config.ts', 'src/app/explorer/page.tsx']);
});

test("the package's type declarations check under the app's TypeScript 5.9, library checks on", () => {
  // `next build` checked the app (skipLibCheck, as apps do); this checks the package's own .d.ts files too.
  const checked = spawnSync(process.execPath, [path.join(appDir, 'node_modules/typescript/bin/tsc'), '--noEmit', '--skipLibCheck', 'false'], {
    cwd: appDir,
    encoding: 'utf8',
  });
  const version = JSON.parse(fs.readFileSync(path.join(appDir, 'node_modules/typescript/package.json'), 'utf8')).version;
  expect(version).toMatch(/^5\./);
  expect(checked.stdout.split('\n').filter((line) => line.includes('vovk-mcp-gateway/'))).toEqual([]);
  expect(checked.stdout).not.toMatch(/^src\//m);
});

test('its REST answers are the ones it gave before the gateway was added', async () => {
  expect(before.map((answer) => answer.status)).toEqual([200, 200, 200, 404, 200, 400, 200, 200]);
  expect(await restAnswers()).toEqual(before);
});

for (const era of eras) {
  test(`${era}: its procedures are tools, answering what REST answers`, async () => {
    await using(connect(era, baseURL), async (client) => {
      const names = (await client.listTools()).map((tool) => tool.name).sort();
      expect(names).toEqual(['PostRPC_listPosts', 'PostRPC_streamTitles', 'UserRPC_getUser', 'UserRPC_listUsers', 'UserRPC_updateUser']);
      const user = await client.callTool('UserRPC_getUser', { params: { id: '2' } });
      expect(user.structuredContent).toEqual(JSON.parse(before[2].body));
      const titles = await client.callTool('PostRPC_streamTitles', {});
      expect(titles.structuredContent).toEqual({ items: before[7].body.trim().split('\n').map((line) => JSON.parse(line)) });
      const missing = await client.callTool('UserRPC_getUser', { params: { id: '9' } });
      expect(missing.isError).toBe(true);
      expect(missing.content[0]?.text).toContain('User 9 not found');
    });
  });

  test(`${era}: search_tools finds a tool and call_tool calls it`, async () => {
    await using(connect(era, selectingURL(baseURL, { tools: 'search' })), async (client) => {
      expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(['call_tool', 'search_tools']);
      const found = await client.callTool('search_tools', { query: 'stream the titles of posts' });
      expect(JSON.stringify(found.structuredContent)).toContain('PostRPC_streamTitles');
      const called = await client.callTool('call_tool', { name: 'UserRPC_listUsers', arguments: { query: { search: 'ada' } } });
      expect(called.structuredContent).toEqual(JSON.parse(before[1].body));
    });
  });

  test(`${era}: code mode runs a program over its tools`, async () => {
    await using(connect(era, selectingURL(baseURL, { tools: 'code' })), async (client) => {
      const program = `const { users } = await tools.UserRPC_listUsers({});
        const posts = await tools.PostRPC_listPosts({ query: { authorId: String(users[1].id) } });
        return posts.map((post) => post.title);`;
      const answer = await client.callTool('execute', { code: program });
      expect(answer.isError, String(answer.content[0]?.text)).toBeFalsy();
      expect((answer.structuredContent as { result: unknown }).result).toEqual(JSON.parse(before[6].body).map((post: { title: string }) => post.title));
    });
  });
}

test('a procedure marked @resource() is a resource template, read as REST answers it', async () => {
  const client = new ClientV2({ name: 'adoption', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new TransportV2(new URL('/api/mcp', baseURL)));
  try {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((listed) => listed.uriTemplate)).toEqual(['vovk://gateway/api/users/{id}']);
    const { contents } = await client.readResource({ uri: 'vovk://gateway/api/users/2' });
    const [read] = contents as Array<{ text?: string }>;
    expect(JSON.parse(String(read?.text))).toEqual(JSON.parse(before[2].body));
  } finally {
    await client.close();
  }
});

test("the package's server entry (`npx vovk-mcp-gateway start`) serves the same build, and SIGTERM ends it cleanly", async () => {
  await server?.stop();
  // A signal before any gateway route loaded (only the app's own REST answered), then one after (the drain installed).
  server = await startApp(appDir, port, 'vovk-mcp-gateway start');
  expect(await server.stop()).toBe(0);
  expect(server.output()).toContain('SIGTERM: no gateway route loaded yet');
  server = await startApp(appDir, port, 'vovk-mcp-gateway start');
  expect(await restAnswers()).toEqual(before);
  await using(connect('client-v2 (2026-07-28)', baseURL), async (client) => expect((await client.listTools()).length).toBe(5));
  expect(server.output()).toMatch(/\[gateway\] Listening on .* \(the build in \.next/);
  expect(await server.stop()).toBe(0);
  expect(server.output()).toContain('[gateway] SIGTERM: shutting down');
  server = await startApp(appDir, port);
});

test('the explorer page renders in the browser and lists the tools', async ({ page }) => {
  await page.goto(`${baseURL}/explorer`);
  for (const name of ['UserRPC_listUsers', 'PostRPC_streamTitles']) await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
});

test('`npx vovk-mcp-gateway tools lock` then `tools check` hold its own catalogue to a contract; a rename fails the check', () => {
  const tools = (...args: string[]) => spawnSync('npx', ['vovk-mcp-gateway', 'tools', ...args], { cwd: appDir, encoding: 'utf8' });
  const locked = tools('lock');
  expect(locked.status, locked.stderr).toBe(0);
  expect(locked.stdout).toContain('wrote mcp-tools.lock.json (5 tools, 0 aliases)');
  const contract = JSON.parse(fs.readFileSync(path.join(appDir, 'mcp-tools.lock.json'), 'utf8'));
  expect(contract.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['UserRPC_getUser', 'UserRPC_listUsers']));
  expect(tools('check')).toMatchObject({ status: 0, stdout: expect.stringContaining("the catalogue's 5 tools match mcp-tools.lock.json") });
  // The command loads the route's source (no build needed): a renamed handler is seen at once, and breaks a caller.
  const controller = path.join(appDir, 'src/modules/user/user-controller.ts');
  const source = fs.readFileSync(controller, 'utf8');
  try {
    fs.writeFileSync(controller, source.replace('static listUsers', 'static findUsers'));
    const renamed = tools('check');
    expect(renamed.status).toBe(1);
    expect(renamed.stderr).toContain('✗ UserRPC_listUsers: renamed to UserRPC_findUsers — a caller that names UserRPC_listUsers fails');
  } finally {
    fs.writeFileSync(controller, source);
  }
});
