// Long-lived answers end when the token they were opened with expires: a timer to the expiry, and an SSE body cut there.
import 'server-only';

/** The longest a timer waits (setTimeout's limit); a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `expired` when `expiresAt` (seconds since the epoch, as a token's `exp`) has passed; returns the cancel. */
export function whenExpired(expiresAt: number | undefined, expired: () => void): () => void {
  if (expiresAt === undefined) return () => {};
  let timer: NodeJS.Timeout;
  const arm = () => {
    const wait = expiresAt * 1000 - Date.now();
    timer = setTimeout(wait > MAX_TIMER_MS ? arm : expired, Math.max(0, Math.min(wait, MAX_TIMER_MS)));
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * `response` with its event stream ended when `expiresAt` passes (its client reconnects, with a token that is valid);
 * any other answer as it is.
 */
export function endingAtExpiry(response: Response, expiresAt: number | undefined): Response {
  if (expiresAt === undefined || !response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  const reader = response.body.getReader();
  let cancelExpiry = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      cancelExpiry = whenExpired(expiresAt, () => {
        controller.close();
        void reader.cancel('the token expired').catch(() => undefined);
      });
    },
    async pull(controller) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) {
        cancelExpiry();
        try {
          controller.close();
        } catch {
          // Closed already, at the expiry.
        }
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      cancelExpiry();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
