// Gzip of an answer holding a large part that many answers repeat (a tools/list listing): the part deflated once.
import 'server-only';
import Negotiator from 'negotiator';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A part of many answers, the same bytes each time: its CRC-32 and deflate, made when first needed, then kept. */
export class RepeatedPart {
  #deflated?: Buffer;
  #crc?: number;

  constructor(readonly bytes: Uint8Array) {}

  /** Its raw deflate, ending at a byte boundary (a sync flush) with no final block, so that more blocks may follow. */
  get deflated(): Buffer {
    return (this.#deflated ??= joinableDeflate(this.bytes));
  }

  /** Its CRC-32, for the trailer of each answer holding it (combined with the rest's, not read again). */
  get crc(): number {
    return (this.#crc ??= crc32(this.bytes));
  }
}

/** A gzip member's header: deflate, no name or comment, no modification time, from Unix (as Node's gzip writes it). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** Where to look for a part in an answer: its first bytes (every place they occur is then compared whole). */
const PROBE_BYTES = 64;

/**
 * The body of `chunks` as one gzip member in which `part` is its deflate made once: the bytes before the part are
 * deflated here and end with a sync flush, the part's blocks follow, then the bytes after it in the final block; the
 * trailer's CRC-32 and length are the whole body's. Any gzip reader, streaming or not, reads it as one member. The part
 * is found as one of the chunks (the MCP SDK passes it on as its own chunk), else by its bytes in the body; undefined
 * when it is not in the body.
 */
export function gzipAround(chunks: readonly Uint8Array[], part: RepeatedPart): Buffer | undefined {
  const [before, after] = aroundPart(chunks, part.bytes) ?? [];
  if (!before || !after) return undefined;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(after, crc32Combine(crc32(before), part.crc, part.bytes.byteLength)), 0);
  trailer.writeUInt32LE((before.byteLength + part.bytes.byteLength + after.byteLength) % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, joinableDeflate(before), part.deflated, deflateRawSync(after), trailer]);
}

/** The bytes of `chunks` before and after `part`, when it is there. */
function aroundPart(chunks: readonly Uint8Array[], part: Uint8Array): [Buffer, Buffer] | undefined {
  const at = chunks.indexOf(part);
  if (at >= 0) return [Buffer.concat(chunks.slice(0, at)), Buffer.concat(chunks.slice(at + 1))];
  const whole = Buffer.concat(chunks);
  const offset = placeOf(whole, part);
  return offset === undefined ? undefined : [whole.subarray(0, offset), whole.subarray(offset + part.byteLength)];
}

/** Where `part` starts in `whole`, compared byte for byte; undefined when it is not there. */
function placeOf(whole: Buffer, part: Uint8Array): number | undefined {
  const probe = part.subarray(0, PROBE_BYTES);
  for (let at = whole.indexOf(probe); at >= 0; at = whole.indexOf(probe, at + 1)) {
    if (Buffer.compare(whole.subarray(at, at + part.byteLength), part) === 0) return at;
  }
  return undefined;
}

/** The CRC-32 polynomial, bits reversed (as zlib and gzip use it). */
const CRC32_POLYNOMIAL = 0xedb88320;
/** x^(2^k) modulo the polynomial, k = 0…31: what moving a CRC past 2^k zero bits multiplies it by. */
const X_TO_2_TO_K = Array.from({ length: 32 }, () => 0);
X_TO_2_TO_K[0] = 1 << 30; // x^1
for (let k = 1; k < 32; k++) X_TO_2_TO_K[k] = multiplyModPolynomial(X_TO_2_TO_K[k - 1], X_TO_2_TO_K[k - 1]);

/** a(x)·b(x) modulo the CRC-32 polynomial, in the reversed bit order (zlib's multmodp). */
function multiplyModPolynomial(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit; bit >>>= 1) {
    if (a & bit) product ^= b;
    b = b & 1 ? (b >>> 1) ^ CRC32_POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length, without reading either (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  let shift = 0x80000000; // x^0
  for (let k = 3, n = lengthB; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2) shift = multiplyModPolynomial(X_TO_2_TO_K[k & 31], shift);
  }
  return (multiplyModPolynomial(shift, crcA) ^ crcB) >>> 0;
}

function joinableDeflate(bytes: Uint8Array): Buffer {
  return deflateRawSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH });
}

/**
 * Whether an answer to a request with these `Accept-Encoding` gets gzip: the choice Next.js's compression makes
 * (gzip, deflate or identity, by the client's preference; gzip over deflate when both are acceptable).
 */
export function choosesGzip(acceptEncoding: string | null | undefined): boolean {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding ?? undefined } });
  let chosen = negotiator.encoding(['gzip', 'deflate', 'identity']);
  if (chosen === 'deflate' && negotiator.encoding(['gzip'])) chosen = negotiator.encoding(['gzip', 'identity']);
  return chosen === 'gzip';
}
