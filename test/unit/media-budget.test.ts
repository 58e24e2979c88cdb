// Unit tests of the media budget: bodies over MCP_MAX_MEDIA_BYTES are never inlined, nor read past the limit.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { runInToolCall, ToModelOutput } from '@/lib/tools';

const format = (result: unknown) => ToModelOutput.MCP(result, null, null);
const png = (size: number, headers: Record<string, string> = {}) =>
  new Response(new Uint8Array(size).fill(7), { headers: { 'Content-Type': 'image/png', ...headers } });

afterEach(() => vi.unstubAllEnvs());

/** A body that never ends, `chunkSize` bytes per pull, counting how often it was pulled. */
function endlessStream(chunkSize: number) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(chunkSize));
    },
  });
  return { stream, pulls: () => pulled };
}

describe('media budget', () => {
  test('a body of exactly the limit is inlined; one byte more is a clear isError', async () => {
    vi.stubEnv('MCP_MAX_MEDIA_BYTES', '16');
    expect((await format(png(16))).content).toEqual([
      { type: 'image', data: Buffer.from(new Uint8Array(16).fill(7)).toString('base64'), mimeType: 'image/png' },
    ]);
    const over = await format(png(17));
    expect(over.isError).toBe(true);
    expect(over.content).toEqual([{ type: 'text', text: expect.stringMatching(/too large for an MCP result: image\/png body over 16 bytes/i) }]);
  });

  test('the budget applies to text and JSON bodies too', async () => {
    vi.stubEnv('MCP_MAX_MEDIA_BYTES', '8');
    expect((await format(new Response('0123456789', { headers: { 'Content-Type': 'text/plain' } }))).isError).toBe(true);
    expect((await format(Response.json({ long: 'value' }))).isError).toBe(true);
  });

  test('a declared Content-Length over the limit is refused without reading the body', async () => {
    vi.stubEnv('MCP_MAX_MEDIA_BYTES', '1024');
    const endless = endlessStream(1024);
    const headers = { 'Content-Type': 'audio/mpeg', 'Content-Length': String(8 * 1024 * 1024) };
    expect((await format(new Response(endless.stream, { headers }))).isError).toBe(true);
    expect(endless.pulls()).toBeLessThanOrEqual(1);
  });

  test('an endless stream is cancelled as soon as it passes the limit', async () => {
    vi.stubEnv('MCP_MAX_MEDIA_BYTES', '4096');
    const endless = endlessStream(1000);
    expect((await format(new Response(endless.stream, { headers: { 'Content-Type': 'audio/mpeg' } }))).isError).toBe(true);
    expect(endless.pulls()).toBeLessThan(10);
  });

  test('with MCP_OVERSIZE_MEDIA=resource_link, oversize media of a GET tool becomes a link to its REST URL', async () => {
    vi.stubEnv('MCP_MAX_MEDIA_BYTES', '16');
    vi.stubEnv('MCP_OVERSIZE_MEDIA', 'resource_link');
    const restUrl = 'http://localhost:3000/api/media/image';
    expect(await runInToolCall({ restUrl }, () => format(png(32)))).toEqual({
      content: [{ type: 'resource_link', uri: restUrl, name: restUrl, mimeType: 'image/png' }],
    });
    // Without a REST URL to point at, the answer stays a clear error.
    expect((await format(png(32))).isError).toBe(true);
  });
});
