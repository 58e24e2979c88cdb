// How the board app keeps up with the board: repainted when the host forwards the board resource's updates
// (ext-apps#659), else by waiting through the host for the next change (the app-only tool, one request per change or
// per ~25 s), else — a host or gateway without that tool — by asking for the board every second.
import type { Board, BoardChange } from '@/modules/board/board-schemas';

/** How the app learns of changes: pushed by the host, a long wait, or a poll every second. */
export type SyncMode = 'push' | 'wait' | 'poll';

export type SyncState = 'connecting' | 'live' | 'reconnecting';

/** What the app reaches through its host. */
export interface BoardLink {
  getBoard(): Promise<Board>;
  /** The app-only tool: the board once its version differs from `after` (or after its timeout, unchanged). */
  waitForChange(after: string | undefined): Promise<BoardChange>;
  /**
   * Subscribes to the board resource's updates, when the host says it forwards them: `onUpdated` runs after each
   * change; resolves to the unsubscribe, rejects when the host or the gateway cannot.
   */
  watchBoard?(onUpdated: () => void): Promise<() => void>;
}

/** Whether the app is seen, and when it is again (a hidden app asks for nothing). */
export interface Visibility {
  visible(): boolean;
  /** Calls `listener` whenever the app becomes visible; returns the removal. */
  onVisible(listener: () => void): () => void;
}

export interface SyncListeners {
  show(board: Board): void;
  state(state: SyncState): void;
  mode(mode: SyncMode): void;
}

/** Between two polls, and the first wait before a failed request is tried again (it doubles, up to RETRY_MAX_MS). */
export const POLL_MS = 1000;
const RETRY_MAX_MS = 8000;

/** JSON-RPC codes of a request refused as such: no such method (the host relays no tools), no such tool. */
const UNSUPPORTED_CODES = new Set([-32601, -32602]);

/** Whether a call failed because the host or the gateway does not have it (not because the network failed). */
export function isUnsupported(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && UNSUPPORTED_CODES.has(code);
}

/**
 * Keeps the board on screen current until the returned stop is called. One request at a time per purpose, so answers
 * never arrive out of order: refreshes run one after another (a change during one makes one more), waits follow
 * each other. `refresh` (after the app's own actions) asks for the board at once when polling; pushed or waiting, the
 * change itself wakes the app.
 */
export function startBoardSync(link: BoardLink, page: Visibility, listeners: SyncListeners) {
  let stopped = false;
  let mode: SyncMode = 'poll';
  const cleanups: Array<() => void> = [];
  const sleeping = new Set<() => void>();

  /** Resolves after `ms`, or at once when the sync stops. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleeping.add(wake);
    });
  /** Resolves once the app is visible (or the sync stops). */
  const seen = () =>
    new Promise<void>((resolve) => {
      if (page.visible()) return resolve();
      const wake = () => {
        sleeping.delete(wake);
        removal();
        resolve();
      };
      const removal = page.onVisible(wake);
      sleeping.add(wake);
    });
  const enter = (next: SyncMode) => {
    mode = next;
    listeners.mode(next);
  };
  const fail = () => !stopped && listeners.state('reconnecting');
  const show = (board: Board) => {
    if (stopped) return;
    listeners.show(board);
    listeners.state('live');
  };

  // Refreshes one after another: a call while one runs makes exactly one more after it.
  let refreshing: Promise<void> | undefined;
  let again = false;
  let stale = false;
  async function refresh(): Promise<void> {
    if (!page.visible()) return void (stale = true);
    if (refreshing) return void (again = true);
    stale = false;
    refreshing = (async () => {
      do {
        again = false;
        try {
          show(await link.getBoard());
        } catch {
          fail();
        }
      } while (again && !stopped);
    })();
    await refreshing.finally(() => (refreshing = undefined));
  }
  cleanups.push(page.onVisible(() => stale && void refresh()));

  async function poll(): Promise<void> {
    enter('poll');
    while (!stopped) {
      await sleep(POLL_MS);
      if (!stopped && page.visible()) await refresh();
    }
  }

  /** Waits for change after change; a tool the host or gateway lacks leaves the app polling. */
  async function wait(): Promise<void> {
    enter('wait');
    let after: string | undefined;
    let retryMs = POLL_MS;
    while (!stopped) {
      await seen();
      if (stopped) return;
      try {
        const change = await link.waitForChange(after);
        after = change.version;
        if (change.changed) show(change.board);
        retryMs = POLL_MS;
      } catch (error) {
        if (stopped) return;
        if (isUnsupported(error)) return poll();
        fail();
        await sleep(retryMs);
        retryMs = Math.min(2 * retryMs, RETRY_MAX_MS);
      }
    }
  }

  async function start(): Promise<void> {
    if (link.watchBoard) {
      try {
        const unsubscribe = await link.watchBoard(() => void refresh());
        if (stopped) return unsubscribe();
        cleanups.push(unsubscribe);
        enter('push');
        // A change between the tool result the host handed over and the subscription would otherwise go unseen.
        return refresh();
      } catch {
        // The host or the gateway cannot push this resource: wait for changes instead.
      }
    }
    return wait();
  }
  void start();

  return {
    /** Asks for the board after one of the app's own changes (pushed or waiting, the change wakes the app anyway). */
    refresh: () => (mode === 'poll' ? refresh() : Promise.resolve()),
    stop() {
      stopped = true;
      for (const wake of [...sleeping]) wake();
      for (const cleanup of cleanups.splice(0)) cleanup();
    },
  };
}
