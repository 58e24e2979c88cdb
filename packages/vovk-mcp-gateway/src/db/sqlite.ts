// The embedded SQLite backend (default): one connection, migration sets by name, writes serialized across processes.
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  ANY_CHANGE,
  AppliedSets,
  ChangeFeed,
  type ChangeListener,
  type DataChange,
  type MigrationSet,
  type Query,
  type SqlDriver,
  watchedTablesOf,
} from './driver.js';

/** The versions of each migration set this database has had (see `MigrationSet`). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS gateway_migrations (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)`;

/**
 * Connection-local triggers that hand each changed row of the watched `tables` to `row_changed` (a function of this
 * process), so that a commit can say which rows it changed.
 */
const rowTriggersOf = (tables: readonly string[]) =>
  tables
    .flatMap((table) =>
      [
        ['INSERT', 'NEW'],
        ['UPDATE', 'NEW'],
        ['DELETE', 'OLD'],
      ].map(
        ([event, row]) =>
          `CREATE TEMP TRIGGER IF NOT EXISTS ${table}_${event.toLowerCase()}_noted AFTER ${event} ON main.${table} ` +
          `BEGIN SELECT row_changed('${table}', ${row}.id); END;`,
      ),
    )
    .join('\n');

/** How often another process's commits are looked for (`PRAGMA data_version`) while someone listens. */
const CHANGE_POLL_MS = 250;

/**
 * The SQLite transactions of this process take turns. A transaction awaits between its statements, so without this a
 * second one could run its statements inside the first; and better-sqlite3 blocks the whole thread while it waits for
 * another connection's write lock, which the awaiting transaction could then never release.
 */
let turn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const result = turn.then(work);
  turn = result.catch(() => undefined);
  return result;
}

export class SqliteDriver implements SqlDriver {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly feed = new ChangeFeed();
  private readonly appliedSets = new AppliedSets();
  /** The rows the transaction under way changed, by table (told to the listeners once it commits). */
  private readonly changed = new Map<string, Set<number>>();
  private poller?: NodeJS.Timeout;

  constructor(file: string) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // Each commit reaches the disk (fsync of the WAL) before the write is acknowledged: a kill -9 loses no committed
    // write under any setting, FULL keeps them through a power loss too (NORMAL may lose the last ones). About 4 ms a
    // write on the reference machine; set here so that it does not depend on how SQLite was compiled.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.db.function('row_changed', { deterministic: false }, (table, id) => {
      let ids = this.changed.get(String(table));
      if (!ids) this.changed.set(String(table), (ids = new Set()));
      ids.add(Number(id));
      return null;
    });
  }

  migrate(set: MigrationSet): Promise<void> {
    return this.appliedSets.once(set, () => inTurn(async () => this.apply(set)));
  }

  read<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN', work);
  }

  write<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN IMMEDIATE', work);
  }

  /**
   * Like `write` (SQLite has one writer anyway), without telling the change listeners, and (unless `durable`) committed
   * without waiting for the disk (`synchronous = NORMAL`): bookkeeping survives a killed process, only a power loss may
   * take the last of it. The next durable commit syncs it along.
   */
  record<T>(work: (query: Query) => Promise<T>, { durable = false } = {}): Promise<T> {
    return this.transaction('BEGIN IMMEDIATE', work, { quiet: true, durable });
  }

  onChange(listener: ChangeListener): () => void {
    const remove = this.feed.add(listener);
    this.poller ??= this.pollOtherProcesses();
    return () => {
      remove();
      if (this.feed.size === 0) this.stopPolling();
    };
  }

  /** Another process held the write lock for longer than busy_timeout. */
  isUnreachable(error: unknown): boolean {
    return (error as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
  }

  async close(): Promise<void> {
    this.stopPolling();
    await inTurn(async () => this.db.close());
  }

  /**
   * Applies each migration of `set` this database has not had in an IMMEDIATE transaction of its own (it takes the
   * write lock first, so two processes starting together apply it once), then adds the triggers of its watched tables.
   */
  private apply(set: MigrationSet): void {
    const watched = watchedTablesOf(set);
    this.db.transaction(() => this.db.exec(CREATE_MIGRATIONS_TABLE)).immediate();
    const version = this.db.prepare<[string], { version: number }>('SELECT version FROM gateway_migrations WHERE name = ?');
    const record = this.db.prepare<[string, number]>(
      `INSERT INTO gateway_migrations (name, version) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET version = excluded.version, applied_at = excluded.applied_at`,
    );
    for (const [index, sql] of set.sqlite.entries()) {
      this.db
        .transaction(() => {
          if ((version.get(set.name)?.version ?? 0) > index) return;
          this.db.exec(sql);
          record.run(set.name, index + 1);
        })
        .immediate();
    }
    this.db.exec(rowTriggersOf(watched));
  }

  private query: Query = async <Row>(sql: string, params: unknown[] = []) => {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    if (statement.reader) return statement.all(params) as Row[];
    statement.run(params);
    return [];
  };

  private transaction<T>(begin: string, work: (query: Query) => Promise<T>, { quiet = false, durable = true } = {}): Promise<T> {
    return inTurn(async () => {
      this.changed.clear();
      // Transactions take turns (inTurn): the setting applies to this one only.
      if (!durable) this.db.pragma('synchronous = NORMAL');
      this.db.exec(begin);
      try {
        const result = await work(this.query);
        this.db.exec('COMMIT');
        const changes = this.takeChanges();
        if (!quiet && changes.length) this.feed.emit(changes);
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        this.changed.clear();
        throw error;
      } finally {
        if (!durable) this.db.pragma('synchronous = FULL');
      }
    });
  }

  /** What the transaction just committed changed, by table (and clears it for the next one). */
  private takeChanges(): DataChange[] {
    const changes = [...this.changed].map(([table, ids]) => ({ table, ids: [...ids] }));
    this.changed.clear();
    return changes;
  }

  /** `data_version` changes when another connection commits; this connection's own writes are emitted directly. */
  private pollOtherProcesses(): NodeJS.Timeout {
    const dataVersion = () => this.db.pragma('data_version', { simple: true }) as number;
    let seen = dataVersion();
    const timer = setInterval(() => {
      const current = dataVersion();
      if (current === seen) return;
      seen = current;
      this.feed.emit([ANY_CHANGE]);
    }, CHANGE_POLL_MS);
    timer.unref();
    return timer;
  }

  private stopPolling(): void {
    clearInterval(this.poller);
    this.poller = undefined;
  }
}
