// What a SQL backend gives the store: migrations, serialized transactions with `?` placeholders, and a change feed.
import 'server-only';

/** Runs one statement inside a transaction; `?` marks each positional parameter. Rows come back as plain objects. */
export type Query = <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<Row[]>;

export interface SqlDriver {
  /** Applies the migrations this database has not had yet (safe when several instances start at once). */
  migrate(): Promise<void>;
  /** Runs `work` in a read transaction: one consistent view of the data. */
  read<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a write transaction, one at a time across every process sharing the database, so that
   * read-then-write steps (positions, existence checks) never interleave. Rolled back when `work` throws.
   */
  write<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a write transaction of bookkeeping data (the events of MCP sessions): it does not wait for the board
   * writers of `write` and is no change of the board data (`onChange` listeners are not called for it). On SQLite it
   * commits without waiting for the disk unless `durable` (what an acknowledgement depends on: a job's start and end).
   */
  record<T>(work: (query: Query) => Promise<T>, options?: { durable?: boolean }): Promise<T>;
  /** Calls `listener` after data changed, by this process or by any other one sharing the database. */
  onChange(listener: () => void): () => void;
  /** Messages between the processes sharing the database (PostgreSQL's LISTEN/NOTIFY); undefined for SQLite. */
  readonly messaging?: SqlMessaging;
  /** Whether `error` means the database cannot be reached now (down, unreachable, timed out), so try again later. */
  isUnreachable(error: unknown): boolean;
  close(): Promise<void>;
}

/** The listeners of a driver's change feed; one that throws is logged and does not stop the others. */
export class ChangeFeed {
  private readonly listeners = new Set<() => void>();

  get size(): number {
    return this.listeners.size;
  }

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        console.error('A store change listener failed:', error);
      }
    }
  }
}

/** What a listener of a channel hears. */
export interface ChannelListener {
  /** A payload sent to the channel. */
  message(payload: string): void;
  /**
   * The LISTEN connection is up, as the database backend `pid` (first, and again after it was lost and opened again:
   * payloads sent meanwhile were missed).
   */
  listening?(pid: number, again: boolean): void;
}

/** Notifications between the processes sharing one database: at most 8000 bytes a payload, delivered on commit. */
export interface SqlMessaging {
  /** Listens on `channel` (a lowercase name of letters, digits and `_`); returns a function that stops listening. */
  listen(channel: string, listener: ChannelListener): () => void;
  notify(channel: string, payload: string): Promise<void>;
  /** Which of these database backends (by pid) are connected now. */
  connectedBackends(pids: number[]): Promise<Set<number>>;
}
