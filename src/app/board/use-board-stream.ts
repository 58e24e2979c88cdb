// Client hook: the live board from /api/board/stream (JSON Lines), reconnecting when the stream ends, fails or goes quiet.
'use client';
import { useEffect, useState } from 'react';
import { authHeaders, isUnauthorized } from '@/lib/browser-token';
import type { Board, BoardEvent } from '@/modules/board/board-schemas';

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'unauthorized';

/** Wait before reconnecting. */
const RETRY_MS = 1000;
/** The server sends a heartbeat every 15 s; a stream silent this long is treated as dead. */
const SILENCE_MS = 40_000;

/** The lines of a JSON Lines body, parsed. */
async function* jsonLines<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const lines = (buffer + decoder.decode(value, { stream: true })).split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) yield JSON.parse(line) as T;
  }
}

/** Reads the stream once, calling `onEvent` per line, until it ends, fails, goes silent or `stop` aborts. */
async function follow(url: string, stop: AbortSignal, onEvent: (event: BoardEvent) => void): Promise<void> {
  const connection = new AbortController();
  const abort = () => connection.abort();
  stop.addEventListener('abort', abort, { once: true });
  let watchdog = setTimeout(abort, SILENCE_MS);
  try {
    const headers = { accept: 'application/jsonl', ...authHeaders() };
    const response = await fetch(url, { signal: connection.signal, cache: 'no-store', headers });
    if (!response.ok || !response.body) throw new Error(`Board stream answered HTTP ${response.status}`);
    for await (const event of jsonLines<BoardEvent>(response.body)) {
      clearTimeout(watchdog);
      watchdog = setTimeout(abort, SILENCE_MS);
      onEvent(event);
    }
  } finally {
    clearTimeout(watchdog);
    stop.removeEventListener('abort', abort);
  }
}

/** The board as the server last sent it (null before the first event), and the state of the connection. */
export function useBoardStream(url = '/api/board/stream'): { board: Board | null; connection: Connection; reconnect(): void } {
  const [board, setBoard] = useState<Board | null>(null);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const stop = new AbortController();
    void (async () => {
      while (!stop.signal.aborted) {
        let unauthorized = false;
        await follow(url, stop.signal, (event) => {
          setConnection('live');
          if (event.type === 'board') setBoard(event.board);
        }).catch((failure: unknown) => (unauthorized = isUnauthorized(failure)));
        if (stop.signal.aborted) return;
        // Asking again without a token would only fail again: wait for one (reconnect).
        if (unauthorized) return setConnection('unauthorized');
        setConnection('reconnecting');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    })();
    return () => stop.abort();
  }, [url, attempt]);

  return { board, connection, reconnect: () => setAttempt((count) => count + 1) };
}
