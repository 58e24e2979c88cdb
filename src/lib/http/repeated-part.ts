// Gzip of an answer holding a large part that many answers repeat (a tools/list listing): the part deflated once.
import 'server-only';
import Negotiator from 'negotiator';
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A part of many answers, the same bytes each time, and its deflate (made when first needed, then kept). */
export class RepeatedPart {
  #deflated?: Buffer;

  constructor(readonly bytes: Uint8Array) {}

  /** Its raw deflate, ending at a byte boundary (a sync flush) with no final block, so that more blocks may follow. */
  get deflated(): Buffer {
    return (this.#deflated ??= joinableDeflate(this.bytes));
  }
}

/** A gzip member's header: deflate, no name or comment, no modification time, from Unix (as Node's gzip writes it). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** Where to look for a part in an answer: its first bytes (every place they occur is then compared whole). */
const PROBE_BYTES = 64;

/**
 * `body` as one gzip member in which `part` is its deflate made once: the bytes before the part are deflated here and
 * end with a sync flush, the part's blocks follow, then the bytes after it in the final block; the trailer's CRC-32 and
 * length are the whole body's. Any gzip reader, streaming or not, reads it as one member. Undefined when `part` is not
 * in `body`.
 */
export function gzipAround(body: Uint8Array, part: RepeatedPart): Buffer | undefined {
  const whole = Buffer.from(body.buffer, body.byteOffset, body.byteLength); // a view, not a copy
  const at = placeOf(whole, part.bytes);
  if (at === undefined) return undefined;
  const before = whole.subarray(0, at);
  const after = whole.subarray(at + part.bytes.byteLength);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(after, crc32(part.bytes, crc32(before))), 0);
  trailer.writeUInt32LE(whole.byteLength % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, joinableDeflate(before), part.deflated, deflateRawSync(after), trailer]);
}

/** Where `part` starts in `whole`, compared byte for byte; undefined when it is not there. */
function placeOf(whole: Buffer, part: Uint8Array): number | undefined {
  const probe = part.subarray(0, PROBE_BYTES);
  for (let at = whole.indexOf(probe); at >= 0; at = whole.indexOf(probe, at + 1)) {
    if (Buffer.compare(whole.subarray(at, at + part.byteLength), part) === 0) return at;
  }
  return undefined;
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
