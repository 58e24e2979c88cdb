// The compression policy through both doors, with the clients people use: Node's fetch (which asks for gzip, as
// browsers do) on REST and pages, the official MCP clients of both eras on MCP; and GATEWAY_COMPRESS=0 turning it off.
import { expect, test } from '@playwright/test';
import { modernEnvelope, modernHeaders } from './support/json-rpc';
import { connect } from './support/mcp';
import { e2eBaseURL, e2ePort, type RunningServer, startServer } from './support/server';

/** The Content-Encoding of a GET with Node's fetch (it sends `Accept-Encoding: gzip, deflate`), and the decoded body's size. */
async function fetched(baseURL: string, path: string): Promise<{ encoding: string | null; bytes: number; type: string | null }> {
  const response = await fetch(baseURL + path);
  expect(response.status, path).toBe(200);
  const bytes = (await response.arrayBuffer()).byteLength;
  return { encoding: response.headers.get('content-encoding'), bytes, type: response.headers.get('content-type') };
}

/** A real MCP client of `era` on `baseURL`, and the Content-Encoding of each reply it got, by JSON-RPC method. */
async function watchedClient(era: Parameters<typeof connect>[0], baseURL: string) {
  const encodings: Array<{ method: string | undefined; encoding: string | null; type: string | null }> = [];
  const client = await connect(era, baseURL, {
    onReply: (reply, method) => encodings.push({ method, encoding: reply.headers.get('content-encoding'), type: reply.headers.get('content-type') }),
  });
  const of = (method: string) => encodings.filter((reply) => reply.method === method);
  return { client, encodings, of, clear: () => encodings.splice(0) };
}

test.describe('compression: on (the default)', () => {
  test('REST with fetch: JSON of 1 KiB or more and pages are gzipped; a small record, a PNG and an MP3 are not', async () => {
    const board = await fetched(e2eBaseURL, '/api/board');
    expect(board.bytes).toBeGreaterThan(1024); // the seeded board alone is larger than the threshold
    expect(board.encoding).toBe('gzip');
    const page = await fetched(e2eBaseURL, '/');
    expect(page.type).toContain('text/html');
    expect(page.encoding).toBe('gzip');

    const user = await fetched(e2eBaseURL, '/api/users/1');
    expect(user.bytes).toBeLessThan(1024);
    expect(user.encoding).toBeNull();
    for (const media of ['/api/media/image', '/api/media/audio']) expect((await fetched(e2eBaseURL, media)).encoding, media).toBeNull();
  });

  test('MCP 2026-07-28 with the official v2 client: a large tools/list is gzipped; a small result and an image result are not', async () => {
    const { client, of } = await watchedClient('client-v2 (2026-07-28)', e2eBaseURL);
    const another = await watchedClient('client-v2 (2026-07-28)', e2eBaseURL);
    try {
      const listed = await client.listTools();
      expect(listed.length).toBeGreaterThan(5);
      // Listed again by this client: kept as the listing's cache hint allows, never asked again.
      expect(await client.listTools()).toEqual(listed);
      expect(of('tools/list')).toHaveLength(1);
      // Listed by another client: from the server's listing cache, gzipped around the tools deflated once; the same tools.
      expect(await another.client.listTools()).toEqual(listed);
      expect([...of('tools/list'), ...another.of('tools/list')].map((reply) => reply.encoding)).toEqual(['gzip', 'gzip']);

      await client.callTool('UserController_getUser', { params: { id: 1 } });
      const image = await client.callTool('MediaController_getImage');
      const [item] = image.content;
      expect(item.type).toBe('image');
      expect(String(item.data).length).toBeGreaterThan(1024); // above the threshold: left alone because it is media
      const calls = of('tools/call');
      expect(calls).toHaveLength(2);
      for (const call of calls) expect(call).toMatchObject({ encoding: null, type: expect.stringContaining('application/json') });
    } finally {
      await Promise.all([client.close(), another.client.close()]);
    }
  });

  test('MCP 2026-07-28 with fetch: each gzipped tools/list of the cache carries its own request’s id around the same tools', async () => {
    const listings = [];
    for (const id of [101, 'second-listing', 102]) {
      const response = await fetch(`${e2eBaseURL}/api/mcp`, {
        method: 'POST',
        headers: modernHeaders('tools/list'),
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: modernEnvelope() } }),
      });
      expect(response.headers.get('content-encoding')).toBe('gzip');
      const answer = await response.json(); // fetch inflates it
      expect(answer).toMatchObject({ jsonrpc: '2.0', id, result: { resultType: 'complete' } });
      listings.push(answer.result.tools);
    }
    expect(listings[0].length).toBeGreaterThan(5);
    expect(listings[1]).toEqual(listings[0]);
    expect(listings[2]).toEqual(listings[0]);
  });

  test('MCP 2025 era with the official v1 client: the session’s replies are SSE streams and never compressed', async () => {
    const { client, encodings } = await watchedClient('sdk-v1 (2025 era)', e2eBaseURL);
    try {
      await client.listTools();
      await client.callTool('UserController_getUser', { params: { id: 1 } });
      await client.callTool('MediaController_getImage');
      const replies = encodings.filter((reply) => reply.method === 'tools/list' || reply.method === 'tools/call');
      expect(replies).toHaveLength(3);
      for (const reply of replies) expect(reply).toMatchObject({ encoding: null, type: expect.stringContaining('text/event-stream') });
    } finally {
      await client.close();
    }
  });
});

test.describe('compression: off (GATEWAY_COMPRESS=0, for a proxy that compresses)', () => {
  let server: RunningServer;
  test.beforeAll(async () => {
    server = await startServer(e2ePort + 170, { GATEWAY_COMPRESS: '0' }, 'test-results/compression-off-server.log');
  });
  test.afterAll(async () => server?.stop());

  test('nothing is compressed on either door, nor the pages', async () => {
    for (const path of ['/api/board', '/']) expect((await fetched(server.baseURL, path)).encoding, path).toBeNull();
    const { client, of } = await watchedClient('client-v2 (2026-07-28)', server.baseURL);
    try {
      await client.listTools();
      expect(of('tools/list').map((reply) => reply.encoding)).toEqual([null]);
    } finally {
      await client.close();
    }
  });
});
