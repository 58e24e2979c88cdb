// Client hook: the live board from the board stream (vovk JSON Lines through the generated client), reconnecting when
// the stream ends, fails or goes quiet, and at once when the server says it is going away.
'use client';
import { useEffect, useState } from 'react';
import { BoardController as BoardRPC } from '@/client';
import { isUnauthorized } from 'vovk-mcp-gateway/browser';
import type { Board, BoardEvent } from '@/modules/board/board-schemas';

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

/** Wait before reconnecting. */
const RETRY_MS = 1000;
/** The server sends a heartbeat every 15 s; a stream silent this long is treated as dead. */
const SILENCE_MS = 40_000;

/** Calls `end` once `signal` aborts (at once if it has). */
function whenAborted(signal: AbortSignal, end: () => void): void {
  if (signal.aborted) end();
  else signal.addEventListener('abort', end, { once: true });
}

/** Reads the stream once, calling `onEvent` per event, until it ends, fails, goes silent or `stop` aborts. */
async function follow(stop: AbortSignal, onEvent: (event: BoardEvent) => void): Promise<void> {
  const connection = new AbortController();
  const abort = () => connection.abort();
  stop.addEventListener('abort', abort, { once: true });
  let watchdog = setTimeout(abort, SILENCE_MS);
  try {
    // vovk's client takes no abort signal (it deep-copies its options): the stream it returns is ended through its own
    // controller, and one that comes after the connection was given up is ended on arrival.
    const request = BoardRPC.streamBoard({ init: { cache: 'no-store' } });
    request.then((events) => whenAborted(connection.signal, () => events.abortSilently()), () => {});
    const givenUp = new Promise<never>((_, reject) =>
      whenAborted(connection.signal, () => reject(new Error('Board stream: no answer'))),
    );
    for await (const event of await Promise.race([request, givenUp])) {
      clearTimeout(watchdog);
      watchdog = setTimeout(abort, SILENCE_MS);
      onEvent(event);
    }
  } finally {
    clearTimeout(watchdog);
    stop.removeEventListener('abort', abort);
    connection.abort(); // the stream ended or failed on its own: let go of the request
  }
}

/** The board as the server last sent it (null before the first event), and the state of the connection. */
export function useBoardStream(): { board: Board | null; connection: Connection; reconnect(): void } {
  const [board, setBoard] = useState<Board | null>(null);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const stop = new AbortController();
    void (async () => {
      while (!stop.signal.aborted) {
        let unauthorized = false;
        // The server's last line when it shuts down: the next attempt goes out at once (to an instance still running).
        let goingAway = false;
        await follow(stop.signal, (event) => {
          if (event.type === 'reconnect') goingAway = true;
          else setConnection('live');
          if (event.type === 'board') setBoard(event.board);
        }).catch((failure: unknown) => (unauthorized = isUnauthorized(failure)));
        if (stop.signal.aborted) return;
        // Asking again without a token would only fail again: wait for one (reconnect).
        if (unauthorized) return setConnection('unauthorized');
        setConnection('reconnecting');
        if (!goingAway) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    })();
    return () => stop.abort();
  }, [attempt]);

  return { board, connection, reconnect: () => setAttempt((count) => count + 1) };
}
