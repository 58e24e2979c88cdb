// Behind a reverse proxy: with GATEWAY_TRUST_PROXY=1 the URLs the gateway hands out (OAuth metadata and challenges,
// REST links in tool results, the explorer's connect panel) and the rate limiter's key follow X-Forwarded-*; without
// it those headers are ignored; a configured GATEWAY_PUBLIC_ORIGIN wins over them; tokens are for the public resource.
import { expect, test } from '@playwright/test';
import { type DevAuthServer, startDevAuthServer } from '../auth-dev/server.mjs';
import { mcpHeaders } from './support/json-rpc';
import { connect, eras } from './support/mcp';
import { scriptToken } from './support/oauth';
import { e2ePort, type RunningServer, startServer } from './support/server';

const TOKEN = 'proxy-test-token-0123456789';
const PUBLIC_HOST = 'gateway.example.com';
/** What a TLS-terminating proxy on https://gateway.example.com sends on with each request. */
const FORWARDED = { 'X-Forwarded-Host': PUBLIC_HOST, 'X-Forwarded-Proto': 'https' };
const authorized = { Authorization: `Bearer ${TOKEN}` };
const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

/** Every server here: token auth (so there are challenges), oversize images as REST links, a rate limit per address. */
const COMMON_ENV = {
  GATEWAY_TOKEN: TOKEN,
  GATEWAY_ALLOWED_HOSTS: PUBLIC_HOST,
  MCP_MAX_MEDIA_BYTES: '1000',
  MCP_OVERSIZE_MEDIA: 'resource_link',
  // Practically no refill: a bucket of 200 per address that the last test of each mode empties.
  GATEWAY_RATE_LIMIT: '0.001',
  GATEWAY_RATE_LIMIT_BURST: '200',
};

const modes = [
  { name: 'trusted proxy (GATEWAY_TRUST_PROXY=1)', offset: 140, env: { GATEWAY_TRUST_PROXY: '1' }, trusted: true },
  { name: 'no trusted proxy (the default)', offset: 141, env: {}, trusted: false },
] as const;

const challengedMetadataUrl = (response: Response) =>
  response.headers.get('www-authenticate')?.match(/resource_metadata="([^"]+)"/)?.[1];

for (const mode of modes) {
  test.describe(mode.name, () => {
    test.describe.configure({ mode: 'serial' });
    let server: RunningServer;
    /** The origin the gateway should hand out to a request that came through the proxy. */
    let expectedOrigin: string;
    test.beforeAll(async () => {
      server = await startServer(e2ePort + mode.offset, { ...COMMON_ENV, ...mode.env }, `test-results/behind-proxy-${mode.offset}.log`);
      expectedOrigin = mode.trusted ? `https://${PUBLIC_HOST}` : server.baseURL;
    });
    test.afterAll(async () => server?.stop());

    test('REST: the protected-resource metadata and the 401 challenge name the public origin', async () => {
      const metadata = await fetch(`${server.baseURL}/.well-known/oauth-protected-resource/api/mcp`, { headers: FORWARDED });
      expect((await metadata.json()).resource).toBe(`${expectedOrigin}/api/mcp`);
      const refused = await fetch(`${server.baseURL}/api/users/1`, { headers: FORWARDED });
      expect(refused.status).toBe(401);
      expect(challengedMetadataUrl(refused)).toBe(`${expectedOrigin}/.well-known/oauth-protected-resource/api/mcp`);
      // The same server reached directly (no forwarded headers) names its default origin either way.
      const direct = await fetch(`${server.baseURL}/.well-known/oauth-protected-resource/api/mcp`);
      expect((await direct.json()).resource).toBe(`${server.baseURL}/api/mcp`);
    });

    test('a malformed forwarded host or scheme falls back to the default origin, never a broken URL', async () => {
      for (const headers of [
        { 'X-Forwarded-Host': `${PUBLIC_HOST}/evil`, 'X-Forwarded-Proto': 'https' },
        { 'X-Forwarded-Host': PUBLIC_HOST, 'X-Forwarded-Proto': 'gopher' },
      ]) {
        const metadata = await fetch(`${server.baseURL}/.well-known/oauth-protected-resource/api/mcp`, { headers });
        expect(metadata.status).toBe(200);
        expect((await metadata.json()).resource).toBe(`${server.baseURL}/api/mcp`);
      }
    });

    test('MCP: the 401 challenge names the public origin', async () => {
      const refused = await fetch(`${server.baseURL}/api/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders, ...FORWARDED },
        body: JSON.stringify(ping),
      });
      expect(refused.status).toBe(401);
      expect(challengedMetadataUrl(refused)).toBe(`${expectedOrigin}/.well-known/oauth-protected-resource/api/mcp`);
    });

    for (const era of eras) {
      test(`MCP ${era}: an oversize image's REST link is on the public origin`, async () => {
        const client = await connect(era, server.baseURL, { headers: { ...authorized, ...FORWARDED } });
        try {
          const result = await client.callTool('MediaController_getImage');
          expect(result.isError).toBeUndefined();
          expect(result.content).toEqual([
            { type: 'resource_link', uri: `${expectedOrigin}/api/media/image`, name: `${expectedOrigin}/api/media/image`, mimeType: 'image/png' },
          ]);
        } finally {
          await client.close();
        }
      });
    }

    test('the explorer shows the public origin in its connect panel and REST lines', async ({ browser }) => {
      // Reached at 127.0.0.1: without a trusted proxy the page shows the address the browser is at.
      const pageOrigin = server.baseURL.replace('localhost', '127.0.0.1');
      const shownOrigin = mode.trusted ? `https://${PUBLIC_HOST}` : pageOrigin;
      const context = await browser.newContext({ extraHTTPHeaders: { ...authorized, ...FORWARDED } });
      try {
        const page = await context.newPage();
        await page.goto(`${pageOrigin}/`);
        const panel = page.getByTestId('connect-panel');
        await expect(panel.getByTestId('endpoint-url')).toHaveText(`${shownOrigin}/api/mcp`);
        expect(JSON.parse((await panel.getByTestId('config-cursor').textContent()) ?? '')).toEqual({
          mcpServers: { 'vovk-gateway': { url: `${shownOrigin}/api/mcp` } },
        });
        // The page itself still talks to the gateway where it is: its tools are listed and their REST lines shown.
        const card = page.getByTestId('tool-card').filter({ hasText: 'UserController_listUsers' });
        await expect(card.getByTestId('rest-url')).toHaveText(`${shownOrigin}/api/users`);
      } finally {
        await context.close();
      }
    });

    test('the rate limiter counts per forwarded client address only behind a trusted proxy', async () => {
      const get = (address: string) =>
        fetch(`${server.baseURL}/api/users/1`, { headers: { ...authorized, ...FORWARDED, 'X-Forwarded-For': `${address}, 10.0.0.1` } });
      let status = 200;
      for (let sent = 0; sent <= Number(COMMON_ENV.GATEWAY_RATE_LIMIT_BURST) && status === 200; sent++) status = (await get('203.0.113.1')).status;
      expect(status).toBe(429);
      // Another client: its own bucket behind a trusted proxy; the proxy's (the same connection peer) otherwise.
      expect((await get('203.0.113.2')).status).toBe(mode.trusted ? 200 : 429);
    });
  });
}

test.describe('a configured GATEWAY_PUBLIC_ORIGIN behind a trusted proxy', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer(
      e2ePort + 142,
      { ...COMMON_ENV, GATEWAY_TRUST_PROXY: '1', GATEWAY_PUBLIC_ORIGIN: 'https://api.example.org' },
      'test-results/behind-proxy-142.log',
    );
  });
  test.afterAll(async () => server?.stop());

  test('wins over the forwarded headers on both doors', async () => {
    const metadata = await fetch(`${server.baseURL}/.well-known/oauth-protected-resource/api/mcp`, { headers: FORWARDED });
    expect((await metadata.json()).resource).toBe('https://api.example.org/api/mcp');
    const client = await connect('client-v2 (2026-07-28)', server.baseURL, { headers: { ...authorized, ...FORWARDED } });
    try {
      const result = await client.callTool('MediaController_getImage');
      expect(result.content[0]).toMatchObject({ type: 'resource_link', uri: 'https://api.example.org/api/media/image' });
    } finally {
      await client.close();
    }
  });
});

test.describe('OAuth behind a trusted proxy (OAUTH_AUDIENCE unset)', () => {
  const port = e2ePort + 143;
  const publicResource = `https://${PUBLIC_HOST}/api/mcp`;
  const directResource = `http://localhost:${port}/api/mcp`;
  let as: DevAuthServer;
  let server: RunningServer;
  test.beforeAll(async () => {
    as = await startDevAuthServer({ resources: [publicResource, directResource], gatewayOrigins: [`http://localhost:${port}`] });
    server = await startServer(
      port,
      { OAUTH_ISSUER: as.issuer, GATEWAY_TRUST_PROXY: '1', GATEWAY_ALLOWED_HOSTS: PUBLIC_HOST },
      'test-results/behind-proxy-143.log',
    );
  });
  test.afterAll(async () => void (await Promise.all([server?.stop(), as?.stop()])));

  test('a token must be issued for the resource the request reached: the public one through the proxy', async () => {
    const get = async (token: string, headers: Record<string, string> = {}) =>
      (await fetch(`${server.baseURL}/api/users/1`, { headers: { Authorization: `Bearer ${token}`, ...headers } })).status;
    const forPublic = await scriptToken(as, publicResource, 'gateway:read');
    const forDirect = await scriptToken(as, directResource, 'gateway:read');
    expect(await get(forPublic, FORWARDED)).toBe(200);
    expect(await get(forDirect, FORWARDED)).toBe(401);
    expect(await get(forDirect)).toBe(200);
    expect(await get(forPublic)).toBe(401);
    const client = await connect('client-v2 (2026-07-28)', server.baseURL, { headers: { Authorization: `Bearer ${forPublic}`, ...FORWARDED } });
    try {
      expect((await client.callTool('sum_numbers', { a: 40, b: 2 })).content).toEqual([{ type: 'text', text: '42' }]);
    } finally {
      await client.close();
    }
  });
});
