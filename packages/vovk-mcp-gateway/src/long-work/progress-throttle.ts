// Progress as callers should see it: monotonic, at most a few updates a second, the last one never lost.
import 'server-only';
import type { ProgressUpdate } from './current-work.js';

/** The least time between two updates passed on (4 a second at most). */
const MIN_INTERVAL_MS = 250;

/** The line a caller reads for an update: its message, else "done of total". */
export function progressText({ done, total, message }: ProgressUpdate): string {
  return message ?? (total === undefined ? `${done} done` : `${done} of ${total} done`);
}

/**
 * Wraps `send` so that it sees progress that never goes back (`done` below the last is dropped) and at most one
 * update per {@link MIN_INTERVAL_MS}: an update arriving sooner waits, replaced by any newer one, and is sent when the
 * interval is over. `flush()` sends a waiting update at once (call it before the work's result goes out).
 */
export function throttledProgress(send: (update: ProgressUpdate) => void, intervalMs = MIN_INTERVAL_MS) {
  let lastDone = Number.NEGATIVE_INFINITY;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let waiting: ProgressUpdate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const sendNow = () => {
    timer = undefined;
    if (!waiting) return;
    const update = waiting;
    waiting = undefined;
    lastSentAt = performance.now();
    send(update);
  };
  return {
    report(update: ProgressUpdate): void {
      if (!Number.isFinite(update.done) || update.done < lastDone) return;
      lastDone = update.done;
      waiting = update;
      const wait = lastSentAt + intervalMs - performance.now();
      if (wait <= 0) sendNow();
      else timer ??= setTimeout(sendNow, wait);
    },
    flush(): void {
      clearTimeout(timer);
      sendNow();
    },
  };
}
