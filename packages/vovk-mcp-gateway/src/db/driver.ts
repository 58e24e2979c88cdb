// What a SQL backend gives the gateway and the app: named migration sets, serialized transactions with `?` placeholders,
// and a change feed.
import 'server-only';

/** Runs one statement inside a transaction; `?` marks each positional parameter. Rows come back as plain objects. */
export type Query = <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<Row[]>;

/**
 * The schema of one owner of tables (the gateway, an app) sharing the database: its ordered migrations in each dialect,
 * tracked by `name` in the driver's own table `gateway_migrations`. Append new ones, never edit an applied one.
 */
export interface MigrationSet {
  /** Whose tables these are (e.g. `vovk-mcp-gateway`); each name counts its own versions. */
  name: string;
  /** The migrations on SQLite, in order (one entry may hold several statements). */
  sqlite: readonly string[];
  /** The same migrations on PostgreSQL, in order. */
  postgres: readonly string[];
  /**
   * Tables of the set (each with an integer `id`) whose committed changes `onChange` tells, naming their rows.
   * @default none
   */
  watched?: readonly string[];
}

/** One database, shared by the gateway and the app: SQLite (one file) or PostgreSQL. */
export interface SqlDriver {
  /**
   * Applies the migrations of `set` this database has not had yet (safe when several instances start at once), then
   * watches its `watched` tables. Once per set name and driver: a later call gets the first one's promise (a failed
   * one is tried again).
   */
  migrate(set: MigrationSet): Promise<void>;
  /** Runs `work` in a read transaction: one consistent view of the data. */
  read<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a write transaction, one at a time across every process sharing the database, so that
   * read-then-write steps (positions, existence checks) never interleave. Rolled back when `work` throws.
   */
  write<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a write transaction of bookkeeping data (the events of MCP sessions): it does not wait for the data
   * writers of `write` and is no change of the watched data (`onChange` listeners are not called for it). On SQLite it
   * commits without waiting for the disk unless `durable` (what an acknowledgement depends on: a job's start and end).
   */
  record<T>(work: (query: Query) => Promise<T>, options?: { durable?: boolean }): Promise<T>;
  /**
   * Calls `listener` with what changed (tables and row ids) after data of the watched tables (see
   * {@link MigrationSet.watched}) changed, by this process or by any other one sharing the database; a change whose
   * rows are not known (another SQLite process, notifications missed while the connection was down) comes as
   * {@link ANY_CHANGE}.
   */
  onChange(listener: ChangeListener): () => void;
  /** Messages between the processes sharing the database (PostgreSQL's LISTEN/NOTIFY); undefined for SQLite. */
  readonly messaging?: SqlMessaging;
  /** Whether `error` means the database cannot be reached now (down, unreachable, timed out), so try again later. */
  isUnreachable(error: unknown): boolean;
  /** Closes every connection: anything run afterwards fails. */
  close(): Promise<void>;
}

/** The migration sets a driver applied or is applying, by name: each set is applied once per driver. */
export class AppliedSets {
  private readonly runs = new Map<string, Promise<void>>();

  /** `apply(set)` the first time a set of this name comes (or after that failed); else the promise of that call. */
  once(set: MigrationSet, apply: (set: MigrationSet) => Promise<void>): Promise<void> {
    let run = this.runs.get(set.name);
    if (!run) {
      run = apply(set).catch((error: unknown) => {
        this.runs.delete(set.name);
        throw error;
      });
      this.runs.set(set.name, run);
    }
    return run;
  }
}

/** Table names the drivers put into SQL of their own (triggers of the watched tables): a plain identifier. */
const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The watched tables of `set`, each checked to be a plain name (they go into the SQL of triggers). */
export function watchedTablesOf(set: MigrationSet): readonly string[] {
  const watched = set.watched ?? [];
  const odd = watched.find((table) => !TABLE_NAME.test(table));
  if (odd !== undefined) throw new Error(`Migration set ${set.name}: not a table name to watch: ${JSON.stringify(odd)}`);
  return watched;
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
 * What a NOTIFY of the watched tables' triggers carries, `<table>:<id>,<id>…` (`<table>:`: too many rows to name; a
 * bare `<table>`: an instance of an older version), as a change.
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
        console.error('A database change listener failed:', error);
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
