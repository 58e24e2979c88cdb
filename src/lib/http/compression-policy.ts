// Which answers get compressed: JSON of at least 1 KiB does; small bodies, media and MCP results of media do not.
import 'server-only';
import { config } from '@/lib/config';
import { type Door, requestContext } from '@/lib/request-context';

/** Below this many bytes a JSON answer is sent as it is: gzip would save a few dozen bytes for its CPU and latency. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * The compression itself is Next.js's (`compress` in next.config.mjs; GATEWAY_COMPRESS=0 turns it off, for deployments
 * whose proxy compresses): gzip or deflate as the client asks, for compressible types only — never images or audio
 * (REST media) — and never a body marked `Cache-Control: no-transform` (SSE replies are, by the MCP SDK). It would
 * gzip every JSON answer of a route, even a 130-byte record: a route's body is a stream and Next.js drops any
 * `Content-Length` a route sets, so its size threshold never applies. Here a JSON answer is read whole (it is complete
 * by the time its Response exists) and marked `no-transform` when it is below the threshold, or when it is an MCP
 * result carrying base64 images or audio — already compressed media, whose gzip costs far more CPU than the quarter of
 * its bytes it saves. `no-transform` tells a proxy the same.
 */
export async function underCompressionPolicy(response: Response, door: Door): Promise<Response> {
  if (!config().compress || !response.body || response.headers.get('cache-control')?.includes('no-transform')) return response;
  if (response.headers.get('content-type')?.split(';')[0].trim().toLowerCase() !== 'application/json') return response;
  // A tool result of media, known from the call itself: marked without reading its megabytes once more.
  if (door === 'mcp' && requestContext()?.repliesWithMedia) return withHeaders(response, noTransform(response.headers));
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = new Uint8Array(await response.arrayBuffer());
  } catch {
    return new Response(null, { status: 500 }); // its body failed (or the client left) before it was complete
  }
  const leaveAlone = body.byteLength < COMPRESSION_THRESHOLD_BYTES || (door === 'mcp' && carriesMedia(body));
  return withHeaders(response, leaveAlone ? noTransform(response.headers) : response.headers, body);
}

/** `headers` and `no-transform` in its Cache-Control. */
function noTransform(headers: Headers): Headers {
  const marked = new Headers(headers);
  marked.append('cache-control', 'no-transform');
  return marked;
}

/** `response` with `headers`, and `body` when it was read. */
function withHeaders(response: Response, headers: Headers, body: ConstructorParameters<typeof Response>[0] = response.body): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Content items of media in a JSON-RPC reply (one that no tool call of this request flagged) as the SDK serializes them (no spaces; inside a JSON string a quote is escaped). */
const MEDIA_ITEMS = ['"type":"image"', '"type":"audio"'];

/** Whether an MCP reply holds image or audio content (base64): one scan of its bytes, no decoding. */
function carriesMedia(body: Uint8Array): boolean {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength); // a view, not a copy
  return MEDIA_ITEMS.some((item) => bytes.includes(item));
}
