// Unit tests of the media budget: bodies over the formatter's maxMediaBytes are never inlined, nor read past the limit.
import { describe, expect, test } from 'vitest';
import { createMcpFormatter, type McpFormatterOptions, ToModelOutput } from '@gateway/tools';

const formatWithin = (options: McpFormatterOptions) => (result: unknown) => createMcpFormatter(options)(result, null, null);
const png = (size: number, headers: Record<string, string> = {}) =>
  new Response(new Uint8Array(size).fill(7), { headers: { 'Content-Type': 'image/png', ...headers } });

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
    const format = formatWithin({ maxMediaBytes: 16 });
    expect((await format(png(16))).content).toEqual([
      { type: 'image', data: Buffer.from(new Uint8Array(16).fill(7)).toString('base64'), mimeType: 'image/png' },
    ]);
    const over = await format(png(17));
    expect(over.isError).toBe(true);
    expect(over.content).toEqual([{ type: 'text', text: expect.stringMatching(/too large for an MCP result: image\/png body over 16 bytes/i) }]);
  });

  test('the budget applies to text and JSON bodies too', async () => {
    const format = formatWithin({ maxMediaBytes: 8 });
    expect((await format(new Response('0123456789', { headers: { 'Content-Type': 'text/plain' } }))).isError).toBe(true);
    expect((await format(Response.json({ long: 'value' }))).isError).toBe(true);
  });

  test('a declared Content-Length over the limit is refused without reading the body', async () => {
    const format = formatWithin({ maxMediaBytes: 1024 });
    const endless = endlessStream(1024);
    const headers = { 'Content-Type': 'audio/mpeg', 'Content-Length': String(8 * 1024 * 1024) };
    expect((await format(new Response(endless.stream, { headers }))).isError).toBe(true);
    expect(endless.pulls()).toBeLessThanOrEqual(1);
  });

  test('an endless stream is cancelled as soon as it passes the limit', async () => {
    const format = formatWithin({ maxMediaBytes: 4096 });
    const endless = endlessStream(1000);
    expect((await format(new Response(endless.stream, { headers: { 'Content-Type': 'audio/mpeg' } }))).isError).toBe(true);
    expect(endless.pulls()).toBeLessThan(10);
  });

  test('with oversizeMedia resource_link, oversize media of a GET tool becomes a link to its REST URL', async () => {
    const restUrl = 'http://localhost:3000/api/media/image';
    const format = formatWithin({ maxMediaBytes: 16, oversizeMedia: 'resource_link', restUrl: () => restUrl });
    expect(await format(png(32))).toEqual({
      content: [{ type: 'resource_link', uri: restUrl, name: restUrl, mimeType: 'image/png' }],
    });
    // Without a REST URL to point at, the answer stays a clear error.
    const noUrl = formatWithin({ maxMediaBytes: 16, oversizeMedia: 'resource_link', restUrl: () => undefined });
    expect((await noUrl(png(32))).isError).toBe(true);
  });

  test('the default formatter (the spec snippets’ ToModelOutput.MCP) inlines up to 4 MiB', async () => {
    expect((await ToModelOutput.MCP(png(4 * 1024 * 1024), null, null)).isError).toBeUndefined();
    expect((await ToModelOutput.MCP(png(4 * 1024 * 1024 + 1), null, null)).isError).toBe(true);
  });
});
