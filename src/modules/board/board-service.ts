// The board as one snapshot, and a feed that sends every watcher a fresh snapshot after changes, a few a second at most;
// a wait for the board to differ from a version the caller shows (the board app's long poll).
import { createHash } from 'node:crypto';
import { onShutdown, WorkCancelled } from 'vovk-mcp-gateway';
import { store, TASK_STATUSES, type TaskStatus } from '@/lib/store';
import type { Board, BoardChange, BoardEvent } from './board-schemas';

const COLUMN_TITLES: Record<TaskStatus, string> = { todo: 'To do', in_progress: 'In progress', done: 'Done' };
/** Changes this close together (a move touches several rows; NOTIFY may come per table) make one snapshot. */
const COALESCE_MS = 20;
/**
 * Snapshots start at least this far apart, so a stream's cost grows with the board's size but not with the write
 * rate: the first change after a quiet spell is sent within COALESCE_MS, later ones together at the end of the
 * interval (a trailing snapshot always follows the last change).
 */
const SNAPSHOT_INTERVAL_MS = 250;
/** Wait before loading again when a load failed (the database was unreachable, say). */
const RETRY_MS = 1000;
/** A keep-alive line this often, which also finds watchers whose connection is gone. */
const HEARTBEAT_MS = 15_000;

/** Sends one event; returns false once the watcher's connection is closed. */
type Send = (event: BoardEvent) => boolean;
type Watcher = { send: Send; seen: number };

async function loadBoard(): Promise<Board> {
  const { tasks, users } = await store().tasksAndUsers();
  const columns = TASK_STATUSES.map((status) => ({
    status,
    title: COLUMN_TITLES[status],
    tasks: tasks.filter((task) => task.status === status),
  }));
  return { columns, users };
}

/**
 * The watchers of this process share one store subscription and one snapshot per change. Snapshots are numbered when
 * their load starts, and a watcher never gets one older than the last it got, however the loads finish.
 */
class BoardFeed {
  private readonly watchers = new Set<Watcher>();
  private loads = 0;
  /** When the last snapshot of every watcher started loading. */
  private lastLoadAt = Number.NEGATIVE_INFINITY;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private heartbeat?: NodeJS.Timeout;

  watch(send: Send, signal: AbortSignal): void {
    const watcher: Watcher = { send, seen: 0 };
    this.watchers.add(watcher);
    signal.addEventListener('abort', () => this.leave(watcher), { once: true });
    this.unsubscribe ??= store().onChange(() => this.schedule());
    this.heartbeat ??= setInterval(() => this.deliver([...this.watchers], { type: 'heartbeat' }), HEARTBEAT_MS).unref();
    void this.load([watcher]);
  }

  private schedule(): void {
    const wait = Math.max(COALESCE_MS, this.lastLoadAt + SNAPSHOT_INTERVAL_MS - performance.now());
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.lastLoadAt = performance.now();
      void this.load([...this.watchers]);
    }, wait);
  }

  private async load(watchers: Watcher[]): Promise<void> {
    const number = ++this.loads;
    try {
      const board = await loadBoard();
      const fresh = watchers.filter((watcher) => watcher.seen < number && this.watchers.has(watcher));
      for (const watcher of fresh) watcher.seen = number;
      this.deliver(fresh, { type: 'board', board });
    } catch (error) {
      console.error('Board stream: loading the board failed; trying again in a second:', error instanceof Error ? error.message : error);
      setTimeout(() => this.watchers.size && this.schedule(), RETRY_MS).unref();
    }
  }

  private deliver(watchers: Watcher[], event: BoardEvent): void {
    for (const watcher of watchers) if (!watcher.send(event)) this.leave(watcher);
  }

  private leave(watcher: Watcher): void {
    this.watchers.delete(watcher);
    if (this.watchers.size) return;
    this.unsubscribe?.();
    clearInterval(this.heartbeat);
    clearTimeout(this.timer);
    this.unsubscribe = this.heartbeat = this.timer = undefined;
  }
}

const feed = new BoardFeed();

/**
 * The version of a board: a digest of its JSON, so the same board has the same version on every instance (a caller
 * may ask another instance next time) and after a restart.
 */
export function boardVersion(board: Board): string {
  return createHash('sha256').update(JSON.stringify(board)).digest('base64url').slice(0, 22);
}

/** The board with its version; `changed` says whether it differs from the version the caller showed. */
function changeOf(board: Board, after: string | undefined): BoardChange {
  const version = boardVersion(board);
  return { board, version, changed: version !== after };
}

export default class BoardService {
  /** The whole board: the columns with their tasks in order, and the users. */
  static getBoard(): Promise<Board> {
    return loadBoard();
  }

  /** Sends the board now and after changes (a few a second at most, the final state always), until `signal` aborts or `send` returns false. */
  static watch(send: Send, signal: AbortSignal): void {
    feed.watch(send, signal);
  }

  /**
   * The board once its version differs from `after`: at once when it already does (or `after` is not given), else
   * when it next changes, else after `timeoutMs` as it is (`changed: false`). Ends at once when `signal` aborts (the
   * caller left) or the server shuts down; afterwards it holds no timer and no place in the feed.
   */
  static async waitForChange(after: string | undefined, timeoutMs: number, signal: AbortSignal): Promise<BoardChange> {
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(), timeoutMs);
    const stop = () => waiting.abort();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    let shown: Board | undefined;
    try {
      for await (const event of BoardService.events(waiting.signal)) {
        if (event.type === 'reconnect') break;
        if (event.type !== 'board') continue;
        shown = event.board;
        const change = changeOf(event.board, after);
        if (change.changed) return change;
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', stop);
    }
    if (signal.aborted) throw new WorkCancelled(signal.reason);
    return changeOf(shown ?? (await loadBoard()), after);
  }

  /**
   * The same events as an async iterable: it waits for the next one abortably and ends as soon as `signal` aborts;
   * when the server shuts down it ends after a last `reconnect` event. Once it ends, however it ends, the watcher
   * leaves the feed.
   */
  static async *events(signal: AbortSignal): AsyncGenerator<BoardEvent> {
    if (signal.aborted) return;
    const left = new AbortController();
    const queue: BoardEvent[] = [];
    let wake = () => {};
    const leave = () => {
      left.abort();
      wake();
    };
    signal.addEventListener('abort', leave, { once: true });
    feed.watch((event) => {
      queue.push(event);
      wake();
      return !left.signal.aborted;
    }, left.signal);
    const stopWatchingShutdown = onShutdown(() => {
      queue.push({ type: 'reconnect' });
      wake();
    });
    try {
      while (!left.signal.aborted) {
        const event = queue.shift();
        if (event) yield event;
        else await new Promise<void>((resolve) => (wake = resolve));
        if (event?.type === 'reconnect') return;
      }
    } finally {
      stopWatchingShutdown();
      signal.removeEventListener('abort', leave);
      left.abort();
    }
  }
}
