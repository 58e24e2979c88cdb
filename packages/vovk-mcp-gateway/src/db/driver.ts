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
  /**
   * Calls `listener` with what changed (tables and row ids) after data changed, by this process or by any other one
   * sharing the database; a change whose rows are not known (another SQLite process, notifications missed while the
   * connection was down) comes as {@link ANY_CHANGE}.
   */
  onChange(listener: ChangeListener): () => void;
  /** Messages between the processes sharing the database (PostgreSQL's LISTEN/NOTIFY); undefined for SQLite. */
  readonly messaging?: SqlMessaging;
  /** Whether `error` means the database cannot be reached now (down, unreachable, timed out), so try again later. */
  isUnreachable(error: unknown): boolean;
  close(): Promise<void>;
}

/** Rows of one table that a committed write changed (inserted, updated or deleted); no `ids`: any of its rows. */
export interface DataChange {
  /** The table's name, or `*`: any table. */
  table: string;
  ids?: readonly number[];
}

/** Something changed, what is not known: every table, any row. */
export const ANY_CHANGE: DataChange = Object.freeze({ table: '*' });

/** Hears the changes one commit (or several close together) made. */
export type ChangeListener = (changes: readonly DataChange[]) => void;

/**
 * What a NOTIFY of the migrations' triggers carries, `<table>:<id>,<id>…` (`<table>:`: too many rows to name; a bare
 * `<table>`: an instance of an older version), as a change.
 */
export function changeOfPayload(payload: string): DataChange {
  const colon = payload.indexOf(':');
  if (colon < 0) return { table: payload || '*' };
  const table = payload.slice(0, colon);
  const ids = payload.slice(colon + 1).split(',').filter(Boolean).map(Number);
  return ids.length && ids.every(Number.isSafeInteger) ? { table, ids } : { table };
}

/** The listeners of a driver's change feed; one that throws is logged and does not stop the others. */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  get size(): number {
    return this.listeners.size;
  }

  add(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(changes: readonly DataChange[]): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(changes);
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
