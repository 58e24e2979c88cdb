// The health probes: GET /livez (the process serves) and GET /readyz (the database answers, not draining) answer at
// once, without a token and past any rate limit; the drain and the database outage are in shutdown and db-outage specs.
import { expect, test } from '@playwright/test';
import { attempt } from './support/reliability';
import { e2ePort, type RunningServer, startServer } from './support/server';

test('GET /livez and GET /readyz answer 200 with JSON, never cached', async ({ baseURL }) => {
  for (const [path, status] of [['/livez', 'alive'], ['/readyz', 'ready']]) {
    const response = await fetch(`${baseURL}${path}`);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('cache-control'), path).toBe('no-store');
    expect(await response.json(), path).toEqual({ status });
  }
});

test('the probes take GET only: another method is a 405, not a crash', async ({ baseURL }) => {
  for (const path of ['/livez', '/readyz']) {
    expect((await attempt(`${baseURL}${path}`, { method: 'POST', body: '{}' })).status, path).toBe(405);
  }
});

test.describe('with a token required and a rate limit of 1 request a second', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer(e2ePort + 101, { GATEWAY_TOKEN: 'probe-test-token', GATEWAY_RATE_LIMIT: '1' }, 'test-results/health-guarded.log');
  });
  test.afterAll(async () => server?.stop());

  test('the probes need no token and are never rate-limited, while the API asks for the token', async () => {
    expect((await attempt(`${server.baseURL}/api/users`)).status).toBe(401);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => attempt(`${server.baseURL}${i % 2 ? '/livez' : '/readyz'}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  });
});
