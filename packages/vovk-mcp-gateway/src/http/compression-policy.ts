// Which answers get compressed: JSON of at least 1 KiB does; small bodies, media and MCP results of media do not.
import 'server-only';
import { config } from '../config.js';
import { type Door, requestContext } from '../request-context.js';
import { inMemoryResponse } from './body-end.js';
import { choosesGzip, gzipAround, type RepeatedPart } from './repeated-part.js';

/** Below this many bytes a JSON answer is sent as it is: gzip would save a few dozen bytes for its CPU and latency. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The compression itself is Next.js's (`compress` in next.config.mjs; GATEWAY_COMPRESS=0 turns it off, for deployments
 * whose proxy compresses): gzip or deflate as the client asks, for compressible types only — never images or audio
 * (REST media) — and never a body marked `Cache-Control: no-transform` (SSE replies are, by the MCP SDK). It would
 * gzip every JSON answer of a route, even a 130-byte record: a route's body is a stream and Next.js drops any
 * `Content-Length` a route sets, so its size threshold never applies. Here the start of a JSON answer is read (a
 * route's JSON comes as one chunk) and it is marked `no-transform` when it ends below the threshold, or when it is an MCP
 * result carrying base64 images or audio — already compressed media, whose gzip costs far more CPU than the quarter of
 * its bytes it saves. `no-transform` tells a proxy the same. One answer is gzipped here instead: one holding a part
 * that many answers repeat (a tools/list listing, `RequestContext.repeatedPart`), whose deflate is made once, so that
 * only the few bytes around it are compressed per answer (when the app runs behind its own HTTP entry, which gives the
 * answer its Content-Encoding: see `ownEncodingHeader`).
 */
export async function underCompressionPolicy(response: Response, door: Door): Promise<Response> {
  if (!config().compress || !response.body || response.headers.get('cache-control')?.includes('no-transform')) return response;
  if (response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() !== 'application/json') return response;
  // A tool result of media, known from the call itself: marked without reading its megabytes once more.
  if (door === 'mcp' && requestContext()?.repliesWithMedia) return withHeaders(response, noTransform(response.headers));
  // An answer holding a part many answers repeat (a tools/list listing) is read to its end (a JSON reply, whole at
  // once) and gzipped here around that part, deflated once, when the client gets gzip.
  const repeated = repeatedPartToGzip();
  let head: Head;
  try {
    head = await headOf(response.body, { toEnd: repeated !== undefined });
  } catch {
    return new Response(null, { status: 500 }); // its body failed (or the client left) before it began
  }
  const gzipped = repeated && head.size >= COMPRESSION_THRESHOLD_BYTES ? gzipAround(head.chunks, repeated) : undefined;
  if (gzipped) return inMemoryResponse(gzipped, { status: response.status, statusText: response.statusText, headers: gzipEncoded(response.headers) });
  const small = head.complete && head.size < COMPRESSION_THRESHOLD_BYTES;
  const leaveAlone = small || (door === 'mcp' && carriesMedia(head.bytes()));
  const headers = leaveAlone ? noTransform(response.headers) : response.headers;
  // A body read whole (a route's JSON, one chunk) goes on as those bytes, not as a stream replaying them.
  if (head.complete) return inMemoryResponse(head.bytes(), { status: response.status, statusText: response.statusText, headers });
  return withHeaders(response, headers, head.rest());
}

/** The start of a body: its first chunks, at least the threshold's worth unless it ended before; the body, whole again. */
interface Head {
  /** The chunks read: the whole body when `complete`. */
  chunks: Uint8Array[];
  /** Their size in bytes. */
  size: number;
  /** Their bytes, in one piece (the chunk itself when there is one). */
  bytes: () => Uint8Array;
  /** Whether the body ended with those chunks (a route's JSON arrives whole, in one chunk). */
  complete: boolean;
  /** The same body, from its first byte (the chunks read, then the rest as it comes); made when asked for. */
  rest: () => ReadableStream<Uint8Array>;
}

/**
 * Reads chunks of `body` until the threshold is passed, then one more read to see whether it ended there — at once for
 * a route's JSON, which comes whole — so that a large answer is neither waited for to its end nor copied; with `toEnd`,
 * to its end (a JSON-RPC reply, whose chunks are all there at once).
 */
async function headOf(body: ReadableStream<Uint8Array>, { toEnd }: { toEnd: boolean }): Promise<Head> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = false;
  while (toEnd || size < COMPRESSION_THRESHOLD_BYTES) {
    const chunk = await reader.read();
    if (chunk.done) {
      complete = true;
      break;
    }
    chunks.push(chunk.value);
    size += chunk.value.byteLength;
  }
  const readSoFar = [...chunks];
  let bytes: Uint8Array | undefined;
  const whole = () => (bytes ??= readSoFar.length === 1 ? readSoFar[0] : Buffer.concat(readSoFar, size));
  if (!complete) {
    const next = await reader.read();
    if (next.done) complete = true;
    else chunks.push(next.value);
  }
  const rest = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
      },
      async pull(controller) {
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
  return { chunks: readSoFar, size, bytes: whole, complete, rest };
}

/**
 * The header in which an answer names the encoding it was compressed with, which the gateway's HTTP entry makes its
 * Content-Encoding (the package's server/gateway.mjs: Next.js drops a route's own); none when the app runs without that entry.
 */
function ownEncodingHeader(): string | undefined {
  return (globalThis as Record<symbol, string | undefined>)[Symbol.for('vovk-gateway.own-encoding-header')];
}

/** The request's repeated part (`RequestContext.repeatedPart`), when it has one and its answer is to be gzipped here. */
function repeatedPartToGzip(): RepeatedPart | undefined {
  const context = requestContext();
  if (!context?.repeatedPart || !ownEncodingHeader() || !choosesGzip(context.request?.headers.get('accept-encoding'))) return undefined;
  return context.repeatedPart;
}

/** `headers` of a body gzipped here, as Next.js's compression would set them (which then leaves the body alone). */
function gzipEncoded(headers: Headers): Headers {
  const encoded = new Headers(headers);
  encoded.set(ownEncodingHeader()!, 'gzip');
  encoded.append('vary', 'Accept-Encoding');
  return encoded;
}

/** `headers` and `no-transform` in its Cache-Control. */
function noTransform(headers: Headers): Headers {
  const marked = new Headers(headers);
  marked.append('cache-control', 'no-transform');
  return marked;
}

/** `response` with `headers`, and `body` when its start was read. */
function withHeaders(response: Response, headers: Headers, body: ReadableStream<Uint8Array> | null = response.body): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Content items of media in a JSON-RPC reply (one that no tool call of this request flagged) as the SDK serializes them (no spaces; inside a JSON string a quote is escaped). */
const MEDIA_ITEMS = ['"type":"image"', '"type":"audio"'];

/** Whether an MCP reply holds image or audio content (base64): one scan of its first bytes, no decoding. */
function carriesMedia(body: Uint8Array): boolean {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength); // a view, not a copy
  return MEDIA_ITEMS.some((item) => bytes.includes(item));
}
