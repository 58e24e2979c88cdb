// Unit tests of what the explorer shows for MCP content items and REST bodies, its client settings and route meta.
import { describe, expect, test } from 'vitest';
import { clientConfigs, sseEndpoint } from '@gateway/browser/explorer/client-configs';
import { bytesToBase64, contentPayload, responsePayload, textPayload } from '@gateway/browser/explorer/payload';
import { REST_META_KEY, restRouteOf } from '@gateway/shared/rest-meta';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('payloads', () => {
  test('text holding a JSON object or array is JSON; anything else stays text', () => {
    expect(textPayload(' {"a":[1]} ')).toEqual({ kind: 'json', value: { a: [1] } });
    expect(textPayload('[1,2]')).toEqual({ kind: 'json', value: [1, 2] });
    expect(textPayload('5.5')).toEqual({ kind: 'text', text: '5.5' });
    expect(textPayload('{not json')).toEqual({ kind: 'text', text: '{not json' });
  });

  test('image and audio items become data URLs; unknown items are shown as their JSON', () => {
    expect(contentPayload({ type: 'image', data: 'AAA=', mimeType: 'image/png' })).toEqual({
      kind: 'image',
      mimeType: 'image/png',
      src: 'data:image/png;base64,AAA=',
    });
    expect(contentPayload({ type: 'audio', data: 'AAA=', mimeType: 'audio/mpeg' })).toMatchObject({
      kind: 'audio',
      src: 'data:audio/mpeg;base64,AAA=',
    });
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
    expect(contentPayload(link)).toEqual({ kind: 'json', value: link });
  });

  test('REST bodies by Content-Type: +json, text and XML, media, and other bytes', () => {
    expect(responsePayload('application/problem+json; charset=utf-8', bytes('{"status":422}'))).toEqual({
      kind: 'json',
      value: { status: 422 },
    });
    expect(responsePayload('application/rss+xml', bytes('<rss/>'))).toEqual({ kind: 'text', text: '<rss/>' });
    expect(responsePayload('text/plain', bytes('{"a":1}'))).toEqual({ kind: 'text', text: '{"a":1}' });
    expect(responsePayload('image/PNG', Uint8Array.from([1, 2, 3]))).toEqual({
      kind: 'image',
      mimeType: 'image/png',
      src: 'data:image/png;base64,AQID',
    });
    expect(responsePayload('application/pdf', bytes('%PDF'))).toEqual({ kind: 'binary', mimeType: 'application/pdf', size: 4 });
    expect(responsePayload(null, bytes('x'))).toMatchObject({ kind: 'binary', mimeType: 'application/octet-stream' });
  });

  test('REST bodies are the kind MCP returns them as: YAML, NDJSON and other text application types are text', () => {
    expect(responsePayload('application/yaml', bytes('a: 1'))).toEqual({ kind: 'text', text: 'a: 1' });
    expect(responsePayload('application/x-ndjson', bytes('{"a":1}\n'))).toEqual({ kind: 'text', text: '{"a":1}\n' });
    expect(responsePayload('application/vnd.api+yaml', bytes('a: 1'))).toEqual({ kind: 'text', text: 'a: 1' });
    expect(responsePayload('Application/JSON; charset=utf-8', bytes('[1]'))).toEqual({ kind: 'json', value: [1] });
  });

  test('base64 of large byte arrays matches Node’s', () => {
    const large = Uint8Array.from({ length: 100_001 }, (_, index) => (index * 31) % 256);
    expect(bytesToBase64(large)).toBe(Buffer.from(large).toString('base64'));
  });
});

test('client settings point every client at the endpoint', () => {
  const endpoint = 'http://localhost:3000/api/mcp';
  const configs = Object.fromEntries(clientConfigs(endpoint).map((config) => [config.id, config.text]));
  expect(JSON.parse(configs['claude-desktop'])).toEqual({
    mcpServers: { 'vovk-gateway': { command: 'npx', args: ['-y', 'mcp-remote', endpoint] } },
  });
  expect(JSON.parse(configs.cursor)).toEqual({ mcpServers: { 'vovk-gateway': { url: endpoint } } });
  expect(configs.inspector).toBe(`npx -y @modelcontextprotocol/inspector --cli ${endpoint} --method tools/list`);
  expect(configs['mcp-remote']).toBe(`npx -y mcp-remote ${endpoint}`);
  expect(JSON.parse(configs.sse)).toEqual({ mcpServers: { 'vovk-gateway': { type: 'sse', url: 'http://localhost:3000/api/sse' } } });
  expect(sseEndpoint('/api/mcp')).toBe('/api/sse');
});

test('restRouteOf reads the advertised route and ignores a missing or malformed one', () => {
  expect(restRouteOf({ [REST_META_KEY]: { method: 'GET', path: '/api/users/{id}' } })).toEqual({
    method: 'GET',
    path: '/api/users/{id}',
  });
  expect(restRouteOf(undefined)).toBeUndefined();
  expect(restRouteOf({ [REST_META_KEY]: { method: 'GET' } })).toBeUndefined();
});
