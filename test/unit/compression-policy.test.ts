// Unit tests of the compression policy's read of a JSON answer: a body read whole goes on as its bytes (and counts as
// sent at once); a body still coming goes on as a stream, its first chunks replayed, and ends when it is read; one
// holding the request's repeated part is gzipped here, when the client asks for gzip.
import { gunzipSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { whenBodyEnds } from '@gateway/http/body-end';
import { underCompressionPolicy } from '@gateway/http/compression-policy';
import { RepeatedPart } from '@gateway/http/repeated-part';
import { requestContext, runInRequestContext } from '@gateway/request-context';

const json = { 'content-type': 'application/json' };

/** A JSON body arriving as `chunks`, the next one only when read. */
function streamed(chunks: string[]): Response {
  const queue = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
  });
  return new Response(body, { headers: json });
}

test('a small JSON answer is marked no-transform and goes on whole, counted as sent at once', async () => {
  const answer = await underCompressionPolicy(Response.json({ id: 1, name: 'Ada Lovelace' }), 'rest');
  expect(answer.headers.get('cache-control')).toContain('no-transform');
  let ended: boolean | undefined;
  const logged = whenBodyEnds(answer, (aborted) => (ended = aborted));
  expect(ended).toBe(false);
  expect(await logged.json()).toEqual({ id: 1, name: 'Ada Lovelace' });
});

test('a large JSON answer in one chunk is left to compression and goes on whole', async () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Task ${i}` })) };
  const answer = await underCompressionPolicy(Response.json(big), 'rest');
  expect(answer.headers.get('cache-control')).toBeNull();
  let ended: boolean | undefined;
  const logged = whenBodyEnds(answer, (aborted) => (ended = aborted));
  expect(ended).toBe(false);
  expect(await logged.json()).toEqual(big);
});

test('a JSON answer still coming after the threshold goes on as a stream from its first byte, and ends when read', async () => {
  const parts = ['{"items":[', `"${'a'.repeat(700)}",`, `"${'b'.repeat(700)}",`, `"${'c'.repeat(700)}"`, ']}'];
  const answer = await underCompressionPolicy(streamed(parts), 'rest');
  let ended: boolean | undefined;
  const logged = whenBodyEnds(answer, (aborted) => (ended = aborted));
  expect(ended).toBeUndefined();
  expect(await logged.text()).toBe(parts.join(''));
  expect(ended).toBe(false);
});

test('an MCP answer holding the request’s repeated part is gzipped here when the client asks for gzip, and left to Next.js otherwise', async () => {
  const tools = Buffer.from(JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ name: `tool_${i}` }))));
  const part = new RepeatedPart(tools);
  const body = `{"result":{"tools":${tools}},"jsonrpc":"2.0","id":9}`;
  const answerTo = (acceptEncoding?: string, reply = new Response(body, { headers: json })) => {
    const request = new Request('http://localhost/api/mcp', { method: 'POST', headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    return runInRequestContext('mcp', () => {
      requestContext()!.repeatedPart = part;
      return underCompressionPolicy(reply, 'mcp');
    }, request);
  };
  const entry = Symbol.for('vovk-gateway.own-encoding-header');
  const global = globalThis as Record<symbol, unknown>;
  expect((await answerTo('gzip, deflate')).headers.get('x-gateway-content-encoding')).toBeNull(); // no entry to encode it (next dev)
  global[entry] = 'x-gateway-content-encoding'; // as server/gateway.mjs says it
  try {
    const gzipped = await answerTo('gzip, deflate');
    expect(gzipped.headers.get('x-gateway-content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toContain('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(body);
    // The same reply in several chunks (as the patched SDK writes it) is read to its end and gzipped the same.
    const inChunks = await answerTo('gzip', streamed(['{"result":{"tools":', tools.toString(), '},"jsonrpc":"2.0",', '"id":9}']));
    expect(gunzipSync(Buffer.from(await inChunks.arrayBuffer())).toString()).toBe(body);
    for (const acceptEncoding of [undefined, 'deflate']) {
      const plain = await answerTo(acceptEncoding);
      expect(plain.headers.get('x-gateway-content-encoding')).toBeNull();
      expect(await plain.text()).toBe(body);
    }
  } finally {
    delete global[entry];
  }
});
