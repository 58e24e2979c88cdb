// Cache hints through the real server and the official clients of both eras: on 2026-07-28 every listing,
// server/discover and resources/read says how long it may be kept (`ttlMs`) and by whom (`cacheScope`): `public` with
// auth off, `private` where a token's scopes or a selection header shape the answer; a procedure's `@resource({ ttlMs })`
// reaches its reads. 2025-11-25 answers carry neither field (that revision has none).
import { expect, test } from '@playwright/test';
import { type OAuthGateway, scriptToken, startOAuthGateway } from './support/oauth';
import { eras, recordedClient, type RecordedClient } from './support/recorded-client';
import { e2ePort, type RunningServer, startServer, stoppedAfterAll } from './support/server';

/** MCP_LIST_TTL_MS of the servers here: not the default, so the hint is seen to come from the setting. */
const LIST_TTL_MS = 120_000;
const env = { MCP_LIST_TTL_MS: String(LIST_TTL_MS) };
/** The demo's `@resource` freshness (src/lib/resource-freshness.ts): the greeting's, a task's. */
const STATIC_TTL_MS = 3_600_000;
const DATA_TTL_MS = 5_000;
const GREETING = 'vovk://gateway/api/text/greeting';
const BOARD = 'vovk://gateway/api/board';
const LISTINGS = ['tools/list', 'resources/list', 'resources/templates/list'] as const;

/** Lists and reads what the hints are checked on; the results as sent, by method. */
async function listAndRead(client: RecordedClient): Promise<(method: string) => Record<string, unknown> | undefined> {
  await client.listTools();
  await client.listResources();
  await client.listResourceTemplates();
  await client.readResource(GREETING);
  await client.readResource(BOARD);
  return (method) => client.lastResult(method);
}

const hintOf = (result: Record<string, unknown> | undefined) => ({ ttlMs: result?.ttlMs, cacheScope: result?.cacheScope });

test.describe('cache hints', () => {
  const stopped = stoppedAfterAll();
  let open: RunningServer;
  let secured: OAuthGateway;

  test.beforeAll(async () => {
    [open, secured] = await Promise.all([
      startServer(e2ePort + 350, env, 'test-results/cache-hints-open.log'),
      startOAuthGateway(e2ePort + 351, { env }),
    ]);
    stopped(open);
    stopped(secured);
  });

  test('2026-07-28, auth off: listings and discover may be kept by anyone for MCP_LIST_TTL_MS; a read for its procedure’s ttlMs', async () => {
    const client = await recordedClient(eras[1], `${open.baseURL}/api/mcp`);
    try {
      const resultOf = await listAndRead(client);
      for (const method of [...LISTINGS, 'server/discover']) expect(hintOf(resultOf(method)), method).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'public' });
      // The board (data) may be kept a few seconds, the greeting (fixed text) an hour.
      expect(hintOf(client.lastResult('resources/read', BOARD))).toEqual({ ttlMs: DATA_TTL_MS, cacheScope: 'public' });
      expect(hintOf(client.lastResult('resources/read', GREETING))).toEqual({ ttlMs: STATIC_TTL_MS, cacheScope: 'public' });
    } finally {
      await client.close();
    }
  });

  test('2026-07-28, a selection header: the tools/list it shapes is private', async () => {
    const client = await recordedClient(eras[1], `${open.baseURL}/api/mcp`, { 'X-MCP-Toolsets': 'TaskController' });
    try {
      await client.listTools();
      expect(hintOf(client.lastResult('tools/list'))).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'private' });
    } finally {
      await client.close();
    }
    // The same selection in the URL is part of the address a shared cache keys by: public.
    const byUrl = await recordedClient(eras[1], `${open.baseURL}/api/mcp?toolsets=TaskController`);
    try {
      await byUrl.listTools();
      expect(hintOf(byUrl.lastResult('tools/list'))).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'public' });
    } finally {
      await byUrl.close();
    }
  });

  test('2026-07-28, auth on: what the token shapes (listings, reads) is private; discover stays public', async () => {
    const token = await scriptToken(secured.as, secured.resource, 'gateway:read');
    const client = await recordedClient(eras[1], secured.resource, { authorization: `Bearer ${token}` });
    try {
      const resultOf = await listAndRead(client);
      for (const method of LISTINGS) expect(hintOf(resultOf(method)), method).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'private' });
      expect(hintOf(resultOf('server/discover'))).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'public' });
      expect(hintOf(client.lastResult('resources/read', BOARD))).toEqual({ ttlMs: DATA_TTL_MS, cacheScope: 'private' });
    } finally {
      await client.close();
    }
  });

  test('2025-11-25 (a session, with and without auth): no ttlMs or cacheScope on any answer', async () => {
    const token = await scriptToken(secured.as, secured.resource, 'gateway:read');
    for (const [url, headers] of [
      [`${open.baseURL}/api/mcp`, {}],
      [secured.resource, { authorization: `Bearer ${token}` }],
    ] as const) {
      const client = await recordedClient(eras[0], url, headers);
      try {
        const resultOf = await listAndRead(client);
        for (const method of ['initialize', ...LISTINGS, 'resources/read']) {
          expect(resultOf(method), `${method} of ${url}`).toBeDefined();
          expect(Object.keys(resultOf(method)!), `${method} of ${url}`).not.toEqual(expect.arrayContaining(['ttlMs']));
          expect(Object.keys(resultOf(method)!), `${method} of ${url}`).not.toEqual(expect.arrayContaining(['cacheScope']));
        }
      } finally {
        await client.close();
      }
    }
  });
});
