// A streaming JSON Lines response that knows when its client has gone, for long-lived feeds such as the board's.

/** Sends one item as a line; returns false once the client has gone. */
export type SendLine<T> = (item: T) => boolean;

/**
 * A `application/jsonl` Response fed by `start`. `closed` aborts when the request aborts or the client cancels the
 * stream; `send` then returns false. Proxies are asked not to buffer or transform it.
 */
export function jsonLinesResponse<T>(request: Request, start: (send: SendLine<T>, closed: AbortSignal) => void): Response {
  const encoder = new TextEncoder();
  const gone = new AbortController();
  request.signal.addEventListener('abort', () => gone.abort(), { once: true });
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      start((item) => {
        if (gone.signal.aborted) return false;
        controller.enqueue(encoder.encode(`${JSON.stringify(item)}\n`));
        return true;
      }, gone.signal);
    },
    cancel: () => gone.abort(),
  });
  return new Response(body, {
    headers: {
      'content-type': 'application/jsonl; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    },
  });
}
