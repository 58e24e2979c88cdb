// Unit tests of the cache hints: each cacheable 2026-07-28 answer says how long it may be kept and by whom — `private`
// when the caller (auth) or a request header shapes it, `public` otherwise — and 2025-era answers carry no such field.
import { describe, expect, test } from 'vitest';
import type { Caller } from '@gateway/request-context';
import { READ_SCOPE } from '@gateway/shared/scope-names';
import { type Asked, statelessGateway } from '../support/stateless-gateway';

const LIST_TTL_MS = 123_000;
const { ask } = statelessGateway(LIST_TTL_MS);

/** The result of one stateless request (it must succeed). */
async function answer(method: string, params: Record<string, unknown> = {}, asked: Asked = {}): Promise<Record<string, unknown>> {
  const { result, error } = await ask(method, params, asked);
  if (!result) throw new Error(`${method} failed: ${JSON.stringify(error)}`);
  return result;
}

/** What the demo's greeting declares: `@resource({ mimeType: 'text/plain', ttlMs: 3_600_000 })`. */
const GREETING_TTL_MS = 3_600_000;

const hintOf = (result: Record<string, unknown>) => ({ ttlMs: result.ttlMs, cacheScope: result.cacheScope });
const reader: Caller = { subject: 'ada', clientId: 'c', scopes: [READ_SCOPE] };
const LISTINGS = ['tools/list', 'resources/list', 'resources/templates/list'];

describe('cache hints (2026-07-28)', () => {
  test('with auth off, a listing and server/discover may be kept by anyone for MCP_LIST_TTL_MS', async () => {
    for (const method of [...LISTINGS, 'server/discover']) {
      expect(hintOf(await answer(method)), method).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'public' });
    }
  });

  test('with auth on, a listing is private (the caller’s scopes filter it); server/discover stays public', async () => {
    for (const method of LISTINGS) expect(hintOf(await answer(method, {}, { caller: reader })), method).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'private' });
    expect(hintOf(await answer('server/discover', {}, { caller: reader }))).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'public' });
  });

  test('a listing a header selects is private: a shared cache keys by URL, not by X-MCP-Toolsets', async () => {
    const tools = await answer('tools/list', {}, { headers: { 'X-MCP-Readonly': '1' } });
    expect(hintOf(tools)).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'private' });
    // The same selection in the URL is public, though its listing was kept from the request above.
    expect(hintOf(await answer('tools/list', {}, { query: '?readonly=1' }))).toEqual({ ttlMs: LIST_TTL_MS, cacheScope: 'public' });
  });

  test('a read answers with its procedure’s @resource ttlMs, private with auth on', async () => {
    const greeting = { uri: 'vovk://gateway/api/text/greeting' };
    expect(hintOf(await answer('resources/read', greeting))).toEqual({ ttlMs: GREETING_TTL_MS, cacheScope: 'public' });
    expect(hintOf(await answer('resources/read', greeting, { caller: reader }))).toEqual({ ttlMs: GREETING_TTL_MS, cacheScope: 'private' });
  });
});

describe('no cache hints in the 2025 era', () => {
  test('2025-11-25 listings, discover-free: no ttlMs nor cacheScope', async () => {
    for (const method of LISTINGS) {
      const result = await answer(method, {}, { legacy: true });
      expect(result, method).not.toHaveProperty('ttlMs');
      expect(result, method).not.toHaveProperty('cacheScope');
    }
  });
});
