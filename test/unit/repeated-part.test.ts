// Unit tests of gzip around a repeated part: one gzip member that any reader inflates to the whole answer, the part
// deflated once for every answer, and the same choice of gzip as Next.js's compression makes.
import { constants, createGunzip, crc32, gunzipSync, inflateRawSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { expect, test, vi } from 'vitest';
import { choosesGzip, crc32Combine, gzipAround, RepeatedPart } from '@gateway/http/repeated-part';

const tools = Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ name: `tool_${i}`, description: `Tool number ${i}` }))));
const answer = (id: number) => Buffer.concat([Buffer.from('{"result":{"tools":'), tools, Buffer.from(`,"resultType":"complete"},"jsonrpc":"2.0","id":${id}}`)]);

/** What a streaming reader (Node's gunzip stream, fed small chunks) makes of `gzipped`. */
async function streamedGunzip(gzipped: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const pieces = Array.from({ length: Math.ceil(gzipped.length / 100) }, (_, i) => gzipped.subarray(i * 100, (i + 1) * 100));
  for await (const chunk of Readable.from(pieces).pipe(createGunzip())) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('an answer holding the part is one gzip member that inflates to the answer, whole and streamed', async () => {
  const part = new RepeatedPart(tools);
  for (const id of [1, 23456]) {
    const gzipped = gzipAround([answer(id)], part)!;
    expect(gzipped.subarray(0, 3)).toEqual(Buffer.from([0x1f, 0x8b, 8]));
    expect(gunzipSync(gzipped)).toEqual(answer(id));
    expect(await streamedGunzip(gzipped)).toEqual(answer(id));
    // One member: its deflate stream alone (between the 10-byte header and the 8-byte trailer) is the whole answer.
    expect(inflateRawSync(gzipped.subarray(10, -8), { finishFlush: constants.Z_SYNC_FLUSH })).toEqual(answer(id));
    expect(gzipped.readUInt32LE(gzipped.length - 8)).toBe(crc32(answer(id)));
    expect(gzipped.readUInt32LE(gzipped.length - 4)).toBe(answer(id).length);
    expect(gzipped.length).toBeLessThan(tools.length / 4);
  }
});

test('the part is deflated once for every answer that holds it', () => {
  const part = new RepeatedPart(tools);
  const deflated = vi.spyOn(part, 'deflated', 'get');
  const first = gzipAround([answer(1)], part);
  const second = gzipAround([answer(2)], part);
  expect(deflated).toHaveBeenCalledTimes(2);
  expect(deflated.mock.results[0].value).toBe(deflated.mock.results[1].value);
  expect(gunzipSync(first!).toString()).toContain('"id":1}');
  expect(gunzipSync(second!).toString()).toContain('"id":2}');
});

test('the part as its own chunk among the answer’s chunks (as the patched SDK writes it) is taken as it is, found by identity', () => {
  const part = new RepeatedPart(tools);
  const found = vi.spyOn(Buffer.prototype, 'indexOf');
  const chunks = [Buffer.from('{"result":{"tools":'), tools, Buffer.from(',"resultType":"complete"},'), Buffer.from('"jsonrpc":"2.0","id":3}')];
  expect(gunzipSync(gzipAround(chunks, part)!)).toEqual(answer(3));
  expect(found).not.toHaveBeenCalled(); // not looked for in the bytes
  found.mockRestore();
  // A copy of the part's bytes in a chunk of its own is found by its bytes instead.
  expect(gunzipSync(gzipAround([chunks[0], Buffer.from(tools), ...chunks.slice(2)], part)!)).toEqual(answer(3));
});

test('the CRC-32 of two pieces from theirs (zlib’s crc32_combine), as zlib computes it of both', () => {
  const pieces = [['hello ', 'world'], ['', 'x'], ['abc', ''], ['x'.repeat(100_000), 'y'.repeat(129_001)]];
  for (const [a, b] of pieces) expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(a + b));
});

test('the part at the start or the end of an answer, or the whole answer', () => {
  const part = new RepeatedPart(tools);
  for (const body of [Buffer.concat([tools, Buffer.from(' ')]), Buffer.concat([Buffer.from('['), tools]), tools]) {
    expect(gunzipSync(gzipAround([body], part)!)).toEqual(body);
  }
});

test('an answer without the part (or with only its start) is not gzipped here', () => {
  const part = new RepeatedPart(tools);
  expect(gzipAround([Buffer.from('{"result":{"tools":[]}}')], part)).toBeUndefined();
  const almost = Buffer.from(tools);
  almost[almost.length - 2] ^= 1;
  expect(gzipAround([almost], part)).toBeUndefined();
});

test('gzip is chosen as Next.js chooses it: by the client’s Accept-Encoding, over deflate when both are acceptable', () => {
  expect(choosesGzip('gzip, deflate')).toBe(true);
  expect(choosesGzip('gzip, deflate, br, zstd')).toBe(true);
  expect(choosesGzip('deflate, gzip;q=0.5')).toBe(true);
  expect(choosesGzip('deflate')).toBe(false);
  expect(choosesGzip('gzip;q=0')).toBe(false);
  expect(choosesGzip('identity')).toBe(false);
  expect(choosesGzip(undefined)).toBe(false);
});
