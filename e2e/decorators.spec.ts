// A procedure's vovk decorators run on both doors and see the same request: one that records, one that rejects.
import { expect, test } from '@playwright/test';
import { connect, eras } from './support/mcp';

const KEY = { 'x-fixture-key': 'open-sesame' };

test('a recording and a rejecting decorator run for REST and for MCP tool calls of both eras alike', async ({ baseURL }) => {
  const id = Math.floor(Math.random() * 1e9);
  const path = `/api/fixture/decorated/${id}?note=hi`;

  // REST: rejected without the key, served with it.
  const refused = await fetch(baseURL + path);
  expect(refused.status).toBe(403);
  expect((await refused.json()).message).toBe('The fixture key is missing');
  expect(await (await fetch(baseURL + path, { headers: KEY })).json()).toEqual({ id, note: 'hi' });

  // MCP: the same decorators, reading the headers of the MCP HTTP request.
  for (const era of eras) {
    const plain = await connect(era, baseURL!);
    const keyed = await connect(era, baseURL!, { headers: KEY });
    try {
      const args = { params: { id }, query: { note: 'hi' } };
      expect(await plain.callTool('FixtureController_getDecorated', args)).toEqual({
        content: [{ type: 'text', text: 'The fixture key is missing' }],
        isError: true,
      });
      expect((await keyed.callTool('FixtureController_getDecorated', args)).structuredContent).toEqual({ id, note: 'hi' });
    } finally {
      await Promise.all([plain.close(), keyed.close()]);
    }
  }

  const calls = ((await (await fetch(`${baseURL}/api/fixture/decorated-calls`)).json()) as { path: string }[]).filter(
    (call) => call.path === `/api/fixture/decorated/${id}?note=hi`,
  );
  const seen = (door: string, fixtureKey: string | null) => ({ door, method: 'GET', path: `/api/fixture/decorated/${id}?note=hi`, fixtureKey });
  expect(calls).toEqual([
    seen('rest', null),
    seen('rest', 'open-sesame'),
    ...eras.flatMap(() => [seen('mcp', null), seen('mcp', 'open-sesame')]),
  ]);
});
