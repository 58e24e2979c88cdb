// Unit tests of ToModelOutput.MCP on every row of the formatting spec, in development and production.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextResponse } from 'next/server';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { HttpException, HttpStatus, ToModelOutput as VovkToModelOutput, toDownloadResponse } from 'vovk';
import { INTERNAL_ERROR_MESSAGE, ToModelOutput } from '@gateway/tools';

const format = (result: unknown) => ToModelOutput.MCP(result, null, null);
const bytes = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 255, 1, 2]);
const base64 = Buffer.from(bytes).toString('base64');

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('JSON content', () => {
  test('[R04][R10] an object becomes one text item with its JSON and the object as structuredContent', async () => {
    expect(await format({ hello: 'world' })).toEqual({
      content: [{ type: 'text', text: '{"hello":"world"}' }],
      structuredContent: { hello: 'world' },
    });
  });

  test('[R06] an array goes under structuredContent.items', async () => {
    expect(await format([{ id: 1 }, { id: 2 }])).toEqual({
      content: [{ type: 'text', text: '[{"id":1},{"id":2}]' }],
      structuredContent: { items: [{ id: 1 }, { id: 2 }] },
    });
  });

  test.each([
    ['a string', 'hi', '"hi"'],
    ['a number', 42, '42'],
    ['a boolean', false, 'false'],
    ['null', null, 'null'],
    ['undefined (no return value)', undefined, 'null'],
  ])('[R04] %s becomes text only, without structuredContent', async (_name, value, text) => {
    expect(await format(value)).toEqual({ content: [{ type: 'text', text }] });
  });

  test('[R04] structuredContent is exactly what the text says (toJSON, Dates, undefined fields)', async () => {
    const result = await format({ at: new Date('2026-01-01T00:00:00.000Z'), gone: undefined });
    expect(result.structuredContent).toEqual({ at: '2026-01-01T00:00:00.000Z' });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });

  test.each([
    ['Response.json', () => Response.json({ a: 1 })],
    ['NextResponse.json', () => NextResponse.json({ a: 1 })],
    ['application/problem+json', () => jsonResponse('application/problem+json')],
    ['application/vnd.api+json', () => jsonResponse('application/vnd.api+json')],
    ['a charset parameter and upper case', () => jsonResponse('Application/JSON; charset=utf-8')],
    ['a +json type with parameters', () => jsonResponse('application/ld+json; profile="x"')],
  ])('[R05] a JSON Response made with %s becomes text + structuredContent', async (_name, make) => {
    expect(await format(make())).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
  });

  test('[R05][R06] a JSON Response holding an array goes under structuredContent.items', async () => {
    expect(await format(Response.json([1, 2]))).toEqual({
      content: [{ type: 'text', text: '[1,2]' }],
      structuredContent: { items: [1, 2] },
    });
  });

  test('[R05] a JSON Response with a body that is not JSON is an error, not a crash', async () => {
    const result = await format(new Response('{oops', { headers: { 'Content-Type': 'application/json' } }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });

  test.each([
    [404, 'application/json', '{"message":"not here"}'],
    [422, 'application/problem+json', '{"title":"bad","status":422}'],
    [500, 'text/plain', 'upstream broke'],
    [400, 'image/png', 'not really an image'],
  ])('[R07] a Response with status %i (%s) gives isError, the body text, no structuredContent', async (status, type, body) => {
    const result = await format(new Response(body, { status, headers: { 'Content-Type': type } }));
    expect(result).toEqual({ content: [{ type: 'text', text: body }], isError: true });
  });

  test('[R07] a status below 400 is not an error status', async () => {
    const result = await format(new Response('{"a":1}', { status: 399, headers: { 'Content-Type': 'application/json' } }));
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ a: 1 });
  });
});

describe('thrown errors and production masking', () => {
  test('[R08] a thrown error gives isError with its message and no structuredContent (development)', async () => {
    vi.stubEnv('NODE_ENV', 'development');
    expect(await format(new Error('database is down'))).toEqual({
      content: [{ type: 'text', text: 'database is down' }],
      isError: true,
    });
    expect(await format(new HttpException(HttpStatus.NOT_FOUND, 'User 9 not found'))).toEqual({
      content: [{ type: 'text', text: 'User 9 not found' }],
      isError: true,
    });
  });

  test('[R09] in production an HttpException keeps its message', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(await format(new HttpException(HttpStatus.NOT_FOUND, 'User 9 not found'))).toEqual({
      content: [{ type: 'text', text: 'User 9 not found' }],
      isError: true,
    });
  });

  test('[R09] in production any other error reads "Internal server error" and is logged with the id in _meta', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const error of [new Error('secret connection string'), new TypeError('x is undefined')]) {
      const result = await format(error);
      expect(result.content).toEqual([{ type: 'text', text: 'Internal server error' }]);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      const errorId = (result._meta as { errorId: string }).errorId;
      expect(errorId).toMatch(/^[0-9a-f-]{36}$/);
      expect(String(log.mock.lastCall?.[0])).toContain(errorId);
      expect(log.mock.lastCall?.[1]).toBe(error);
    }
    expect(INTERNAL_ERROR_MESSAGE).toBe('Internal server error');
  });

  test('[R09] ToModelOutput.DEFAULT masks the same way', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(ToModelOutput.DEFAULT(new Error('secret'))).toEqual({ error: 'Internal server error' });
    expect(ToModelOutput.DEFAULT(new HttpException(HttpStatus.FORBIDDEN, 'No'))).toEqual({ error: 'No' });
    expect(ToModelOutput.DEFAULT({ ok: true })).toEqual({ ok: true });
  });
});

describe('audio and image content', () => {
  test.each([
    ['image/png', 'image'],
    ['image/jpeg', 'image'],
    ['audio/mpeg', 'audio'],
    ['audio/wav', 'audio'],
  ])('[R11][R12][R13] a %s Response becomes %s content with the body in base64', async (mimeType, type) => {
    expect(await format(new Response(bytes, { headers: { 'Content-Type': mimeType } }))).toEqual({
      content: [{ type, data: base64, mimeType }],
    });
  });

  test('[R11] mimeType carries no parameters and is lower-cased', async () => {
    const result = await format(new Response(bytes, { headers: { 'Content-Type': 'Audio/MPEG; bitrate=32' } }));
    expect(result.content).toEqual([{ type: 'audio', data: base64, mimeType: 'audio/mpeg' }]);
  });

  test('[R14] a toDownloadResponse Response becomes audio content', async () => {
    const result = await format(toDownloadResponse(bytes, { type: 'audio/mpeg', filename: 'a.mp3' }));
    expect(result.content).toEqual([{ type: 'audio', data: base64, mimeType: 'audio/mpeg' }]);
  });

  test('[R14] a Response from fetch becomes audio content', async () => {
    const server = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'audio/mpeg' }).end(bytes));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await format(await fetch(`http://127.0.0.1:${port}/a.mp3`));
      expect(result.content).toEqual([{ type: 'audio', data: base64, mimeType: 'audio/mpeg' }]);
    } finally {
      server.close();
    }
  });
});

describe('text content and unsupported types', () => {
  test.each([
    'text/plain',
    'text/csv',
    'text/html; charset=utf-8',
    'application/xml',
    'application/rss+xml',
    'application/atom+xml',
    'application/javascript',
    'application/yaml',
    'application/x-yaml',
  ])('[R15][R16] a %s Response becomes text content', async (type) => {
    expect(await format(new Response('Hello, world!', { headers: { 'Content-Type': type } }))).toEqual({
      content: [{ type: 'text', text: 'Hello, world!' }],
    });
  });

  test.each([
    ['application/pdf', 'application/pdf'],
    ['application/zip', 'application/zip'],
    ['APPLICATION/PDF; version=1.7', 'application/pdf'],
    ['application/octet-stream', 'application/octet-stream'],
  ])('[R17] a %s Response gives isError and "Unsupported response content type %s"', async (header, type) => {
    expect(await format(new Response(bytes, { headers: { 'Content-Type': header } }))).toEqual({
      content: [{ type: 'text', text: `Unsupported response content type ${type}` }],
      isError: true,
    });
  });
});

describe('where vovk 3.7.0 differs from the spec, the project formatter follows the spec', () => {
  test.each([
    ['a +json Response', () => jsonResponse('application/problem+json')],
    ['an error status Response', () => new Response('{"a":1}', { status: 500, headers: { 'Content-Type': 'application/json' } })],
  ])('[R05][R07] %s', async (_name, make) => {
    expect(await format(make())).not.toEqual(await VovkToModelOutput.MCP(make(), {} as never, null));
  });

  test('[R09] a plain error in production', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const vovk = await VovkToModelOutput.MCP(new Error('secret'), {} as never, null);
    expect(JSON.stringify(vovk)).toContain('secret');
    expect(JSON.stringify(await format(new Error('secret')))).not.toContain('secret');
  });
});

function jsonResponse(type: string): Response {
  return new Response('{"a":1}', { headers: { 'Content-Type': type } });
}
