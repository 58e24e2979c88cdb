// Security on by default: DNS-rebinding protection, body limits, production masking on REST; and opt-in token auth.
import { expect, test } from '@playwright/test';
import { connect } from './support/mcp';
import { mcpHeaders, postMcp, rawRequest, toolCall } from './support/json-rpc';
import { type RunningServer, startServer } from './support/server';

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

test.describe('DNS-rebinding protection (default settings)', () => {
  test('a foreign Host gets 403 on MCP and REST; localhost names pass', async ({ baseURL }) => {
    for (const host of ['evil.example.com', 'evil.example.com:3217', '192.168.1.20']) {
      const mcp = await postMcp(baseURL!, ping, { ...mcpHeaders, Host: host });
      expect(mcp.status, host).toBe(403);
      expect(mcp.message?.error?.message).toMatch(/Invalid Host/);
      const rest = await rawRequest(`${baseURL}/api/users/1`, { headers: { Host: host } });
      expect(rest.status, host).toBe(403);
      expect((await postMcp(baseURL!, ping, { ...mcpHeaders, Host: 'localhost', 'X-Forwarded-Host': host })).status).toBe(200);
    }
    const port = new URL(baseURL!).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `0.0.0.0:${port}`]) {
      expect((await postMcp(baseURL!, ping, { ...mcpHeaders, Host: host })).status, host).toBe(200);
    }
  });

  test('a foreign Origin gets 403; a localhost Origin and no Origin pass', async ({ baseURL }) => {
    const evil = await postMcp(baseURL!, ping, { ...mcpHeaders, Origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect((await fetch(`${baseURL}/api/users/1`, { headers: { Origin: 'https://evil.example.com' } })).status).toBe(403);
    expect((await postMcp(baseURL!, ping, { ...mcpHeaders, Origin: baseURL! })).status).toBe(200);
    expect((await postMcp(baseURL!, ping)).status).toBe(200);
  });

  test('X-Forwarded-Host is not trusted unless configured', async ({ baseURL }) => {
    const spoofed = await postMcp(baseURL!, ping, { ...mcpHeaders, Host: 'evil.example.com', 'X-Forwarded-Host': 'localhost' });
    expect(spoofed.status).toBe(403);
  });
});

test.describe('limits and masking (default settings)', () => {
  test('an MCP body over 1 MiB is refused with 413 and a JSON-RPC error', async ({ baseURL }) => {
    const huge = JSON.stringify(toolCall(1, 'sum_numbers', { a: 1, b: 2, pad: 'x'.repeat(1024 * 1024) }));
    const answer = await postMcp(baseURL!, huge);
    expect(answer.status).toBe(413);
    expect(answer.message?.error?.message).toMatch(/must not exceed 1048576 bytes/);
  });

  test('REST masks non-HttpException errors in production and logs nothing secret to the client', async ({ baseURL }) => {
    const response = await fetch(`${baseURL}/api/fixture/throw`);
    expect(response.status).toBe(500);
    const body = await response.json();
    expect(body).toMatchObject({ message: 'Internal server error', isError: true, statusCode: 500 });
    expect(body.cause.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(body)).not.toContain('hunter2');
  });

  test('a malformed x-meta header is a 400, not a 500', async ({ baseURL }) => {
    const response = await fetch(`${baseURL}/api/users/1`, { headers: { 'x-meta': '{not json' } });
    expect(response.status).toBe(400);
  });
});

test.describe('hardened settings: GATEWAY_TOKEN, GATEWAY_TRUST_PROXY, small media budget', () => {
  const token = 'test-token-0123456789abcdef';
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer(Number(process.env.E2E_PORT ?? 3217) + 40, {
      GATEWAY_TOKEN: token,
      GATEWAY_TRUST_PROXY: '1',
      GATEWAY_ALLOWED_HOSTS: 'gateway.example.com',
      MCP_MAX_MEDIA_BYTES: '1000',
    }, 'test-results/hardened-server.log');
  });
  test.afterAll(async () => server?.stop());

  test('MCP and REST without the token get 401 with a WWW-Authenticate challenge pointing to RFC 9728 metadata', async () => {
    for (const answer of [
      await postMcp(server.baseURL, ping),
      await postMcp(server.baseURL, ping, { ...mcpHeaders, Authorization: 'Bearer wrong-token' }),
    ]) {
      expect(answer.status).toBe(401);
    }
    const rest = await fetch(`${server.baseURL}/api/users/1`);
    expect(rest.status).toBe(401);
    const challenge = rest.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    const metadataURL = challenge.match(/resource_metadata="([^"]+)"/)?.[1];
    expect(metadataURL).toContain('/.well-known/oauth-protected-resource');
    const metadata = await (await fetch(new URL(new URL(metadataURL!).pathname, server.baseURL))).json();
    expect(metadata.resource).toContain(new URL(server.baseURL).port);
  });

  test('with the token, REST and both MCP client eras work', async () => {
    const authorization = { Authorization: `Bearer ${token}` };
    expect((await fetch(`${server.baseURL}/api/users/1`, { headers: authorization })).status).toBe(200);
    for (const era of ['sdk-v1 (2025 era)', 'client-v2 (2026-07-28)'] as const) {
      const client = await connect(era, server.baseURL, { headers: authorization });
      expect((await client.callTool('sum_numbers', { a: 40, b: 2 })).content).toEqual([{ type: 'text', text: '42' }]);
      await client.close();
    }
  });

  test('a trusted proxy may name an allowed host in X-Forwarded-Host; a foreign one is still refused', async () => {
    const headers = { ...mcpHeaders, Authorization: `Bearer ${token}` };
    expect((await postMcp(server.baseURL, ping, { ...headers, 'X-Forwarded-Host': 'gateway.example.com' })).status).toBe(200);
    expect((await postMcp(server.baseURL, ping, { ...headers, 'X-Forwarded-Host': 'evil.example.com' })).status).toBe(403);
  });

  test('the explorer and the board ask for the token, then work with it', async ({ page }) => {
    await page.goto(`${server.baseURL}/`);
    await page.getByLabel(/requires a token/).fill(token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect(page.getByTestId('tool-card').first()).toBeVisible();
    await expect(page.getByTestId('tool-name').filter({ hasText: 'UserController_getUser' })).toBeVisible();
    // The REST view sends it too.
    const rest = page.getByTestId('tool-card').filter({ hasText: 'UserController_listUsers' }).getByTestId('rest-view');
    await rest.getByRole('button', { name: 'Send REST request' }).click();
    await expect(rest.getByTestId('rest-status')).toContainText('HTTP 200');
    // The token stays for this tab: the board uses it at once.
    await page.goto(`${server.baseURL}/board`);
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Token needed');
    await page.getByLabel(/requires a token/).fill(token);
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Live');
  });

  test('media over MCP_MAX_MEDIA_BYTES is not inlined: a clear isError naming the REST URL', async () => {
    const client = await connect('sdk-v1 (2025 era)', server.baseURL, { headers: { Authorization: `Bearer ${token}` } });
    const result = await client.callTool('MediaController_getImage');
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0].text).toMatch(/too large.*over 1000 bytes.*GET http:\/\/localhost:\d+\/api\/media\/image/);
  });
});
