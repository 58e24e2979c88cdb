// Tells when a response has been sent: its body read to the end, or cancelled because the client left.
import 'server-only';

/** Responses whose whole body is already in memory (one chunk): nothing to wait for, no stream to wrap it in. */
const inMemory = new WeakSet<Response>();

/** A response of `bytes`, the whole body, known to be in memory: `whenBodyEnds` reports it sent at once. */
export function inMemoryResponse(bytes: Uint8Array, init: ResponseInit): Response {
  const response = new Response(bytes as Uint8Array<ArrayBuffer>, init);
  inMemory.add(response);
  return response;
}

/**
 * `response` with the same status, headers and body, calling `onEnd` once its body has been read to the end
 * (`aborted`: false) or cancelled (true) — at once when it has no body or its body is in memory (`inMemoryResponse`:
 * handed to Node in one write, so no stream is put around it). Streamed replies end late: SSE streams of MCP and the
 * board's JSON Lines end when the server closes them or the client leaves.
 */
export function whenBodyEnds(response: Response, onEnd: (aborted: boolean) => void): Response {
  if (!response.body || inMemory.has(response)) {
    onEnd(false);
    return response;
  }
  let ended = false;
  const end = (aborted: boolean) => {
    if (ended) return;
    ended = true;
    onEnd(aborted);
  };
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        end(true);
        throw error;
      }
      if (!chunk.done) return controller.enqueue(chunk.value);
      controller.close();
      end(false);
    },
    cancel(reason) {
      end(true);
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
