// The production build holds no test-only code whatever the environment says, and a bad configuration stops the start.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { connect } from './support/mcp';
import { e2ePort, gatewayCommand, type RunningServer, startServer } from './support/server';

/** Every switch that turns test-only code on, as a careless deployment might set them. */
const TEST_SWITCHES = {
  GATEWAY_TEST_BUILD: '1',
  GATEWAY_TEST_FIXTURES: '1',
  MCP_CONFORMANCE: '1',
  GATEWAY_BENCHMARK: '1',
  GATEWAY_BENCHMARK_TOOLS: '3',
};
/** What only test-only code serves: fixture, conformance and benchmark tools and routes. */
const isTestTool = (name: string) =>
  /^(FixtureController|ConformanceController|BenchController)_|^bench_tool_|^test_|^json_schema_2020_12_tool$/.test(name);
const TEST_ROUTES = [
  ['GET', '/api/fixture/memory'],
  ['GET', '/api/fixture/throw'],
  ['GET', '/api/conformance/simple-text'],
  ['GET', '/api/conformance/input/elicitation'],
  ['GET', '/api/bench/image?mib=1'],
  // The benchmark's hand-written MCP route (no file in src/app) and its bare floors (a route of the test build only):
  // no method even shows that they exist.
  ...['/api/bench/mcp', '/api/bench-floor/rest', '/api/bench-floor/mcp'].flatMap((route) =>
    (['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const).map((method) => [method, route] as const),
  ),
] as const;

const statusOf = async (baseURL: string, [method, route]: readonly [string, string]) =>
  (await fetch(baseURL + route, { method, headers: { 'content-type': 'application/json' }, ...(method === 'POST' ? { body: '{}' } : {}) }))
    .status;

/** Files of a build directory's server output that contain `marker`. */
function filesContaining(dir: string, marker: string): string[] {
  return (fs.readdirSync(path.join(dir, 'server'), { recursive: true }) as string[]).filter((file) => {
    const full = path.join(dir, 'server', file);
    return fs.statSync(full).isFile() && fs.readFileSync(full, 'utf8').includes(marker);
  });
}

test.describe('the production build, started by `npm start` with every test switch on', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    // scripts/start.sh (`npm start`): it must serve .next whatever GATEWAY_TEST_BUILD says.
    server = await startServer(e2ePort + 50, TEST_SWITCHES, 'test-results/production-server.log', 'production', ['scripts/start.sh']);
  });
  test.afterAll(async () => server?.stop());

  test('lists no test tool over MCP, while the test build does', async ({ baseURL }) => {
    const production = await connect('client-v2 (2026-07-28)', server.baseURL);
    const testBuild = await connect('client-v2 (2026-07-28)', baseURL!);
    try {
      const names = (await production.listTools()).map((tool) => tool.name);
      expect(names).toContain('UserController_getUser');
      expect(names.filter(isTestTool)).toEqual([]);
      expect((await testBuild.listTools()).map((tool) => tool.name).filter(isTestTool)).toContain('FixtureController_getPdf');
    } finally {
      await Promise.all([production.close(), testBuild.close()]);
    }
  });

  test('answers 404 on every test-only route, which the test build serves', async ({ baseURL }) => {
    for (const route of TEST_ROUTES) expect(await statusOf(server.baseURL, route), route.join(' ')).toBe(404);
    expect(await statusOf(baseURL!, ['GET', '/api/fixture/memory'])).toBe(200);
  });

  test('has no test-only code in its bundle (.next), unlike the test build (.next-test)', () => {
    const markers = [
      'fixture secret: database password is hunter2',
      'This is a simple text response for testing.',
      'Step 2: What is your favorite color?',
    ];
    for (const marker of markers) {
      expect(filesContaining('.next', marker), marker).toEqual([]);
      expect(filesContaining('.next-test', marker).length, marker).toBeGreaterThan(0);
    }
  });
});

/** Starts the production server with `env` and waits for it to exit; its exit code and what it printed. */
function startExpectingExit(env: Record<string, string>, port: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = gatewayCommand(port);
    const child = spawn(program, args, {
      env: { ...process.env, NODE_ENV: 'production', GATEWAY_TEST_BUILD: '0', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server kept running with ${JSON.stringify(env)}:\n${output}`));
    }, 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test.describe('an invalid configuration stops the start', () => {
  for (const [index, [name, value, expects]] of [
    ['MCP_MAX_BODY_BYTES', 'abc', 'expected a positive whole number of bytes'],
    ['MEDIA_ALLOWED_ORIGINS', 'not-a-url', 'expected an origin'],
    ['MCP_OVERSIZE_MEDIA', 'sometimes', 'expected error or resource_link'],
    ['DATABASE_URL', 'mysql://db/gateway', 'expected a PostgreSQL URL'],
  ].entries()) {
    test(`${name}=${value}: exit code 1 and a message naming the variable`, async () => {
      const { code, output } = await startExpectingExit({ [name]: value }, e2ePort + 46 + index);
      expect(code).toBe(1);
      expect(output).toContain(`${name}="${value}": ${expects}`);
      expect(output).toContain('The gateway did not start');
    });
  }
});
