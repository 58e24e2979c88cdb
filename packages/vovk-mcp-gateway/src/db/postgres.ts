// The PostgreSQL backend (DATABASE_URL): a pool, migrations and writes under an advisory lock, LISTEN/NOTIFY changes.
import 'server-only';
import pg from 'pg';
import {
  ANY_CHANGE,
  AppliedSets,
  ChangeFeed,
  changeOfPayload,
  type ChangeListener,
  type ChannelListener,
  type MigrationSet,
  type Query,
  type SqlDriver,
  type SqlMessaging,
  watchedTablesOf,
} from './driver.js';

/** The channel the triggers of the watched tables NOTIFY on every change of one of them. */
export const CHANGE_CHANNEL = 'gateway_data_changes';
/** Advisory lock held by every write transaction (and the migrations): one writer at a time, across instances. */
const WRITE_LOCK_KEY = 4_611_917;
/** Wait before reopening a dropped LISTEN connection. */
const RELISTEN_MS = 1000;
/**
 * Bounds that keep a request from hanging when the database is down or unreachable: opening a connection (or waiting
 * for a free one), a statement on the server (lock waits included), and an answer on the client (a silent server).
 */
const CONNECT_TIMEOUT_MS = 3000;
const STATEMENT_TIMEOUT_MS = 5000;
const QUERY_TIMEOUT_MS = 6000;
/** How often the LISTEN connection is checked, so that a silently dead one is noticed and opened again. */
const LISTEN_CHECK_MS = 10_000;
const connectionOptions = {
  connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  statement_timeout: STATEMENT_TIMEOUT_MS,
  query_timeout: QUERY_TIMEOUT_MS,
  keepAlive: true,
} satisfies pg.ClientConfig;

/**
 * Errors that mean "the database cannot be reached now", not "this request is wrong": connection failures, the server
 * shutting down or starting up (57P01–57P03), too many connections (53300), a statement or answer timed out (57014,
 * the client-side timeouts), any connection exception (class 08).
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300', '57014']);
const UNREACHABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client was closed|not queryable|Client has encountered a connection error/i;

function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return UNREACHABLE_MESSAGES.test(error.message) || (error instanceof AggregateError && error.errors.some(isUnreachable));
}

/** timestamptz values read as ISO 8601 strings in UTC, as the SQLite backend stores them. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMPTZ
      ? (value: string) => new Date(value).toISOString()
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** `?` placeholders as PostgreSQL numbers them: `$1`, `$2`, … (the SQL run here has no `?` inside literals). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/** The versions of each migration set this database has had (see `MigrationSet`). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS gateway_migrations (
  name text PRIMARY KEY,
  version integer NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/**
 * What the statement triggers of a watched table call: one NOTIFY on {@link CHANGE_CHANNEL} per statement, from its
 * transition table, `<table>:<id>,<id>…` (`<table>:` when the ids pass 7,800 bytes of NOTIFY's 8,000).
 */
const CHANGE_FUNCTION_BODY = `
  DECLARE ids text;
  BEGIN
    IF TG_OP = 'DELETE' THEN SELECT string_agg(id::text, ',') INTO ids FROM old_rows;
    ELSE SELECT string_agg(id::text, ',') INTO ids FROM new_rows;
    END IF;
    IF ids IS NULL THEN RETURN NULL; END IF;
    IF length(ids) > 7800 THEN ids := ''; END IF;
    PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME || ':' || ids);
    RETURN NULL;
  END `;

/** The events a watched table has a statement trigger for, each with the transition table naming its rows. */
const CHANGE_EVENTS = [
  ['insert', 'NEW TABLE AS new_rows'],
  ['update', 'NEW TABLE AS new_rows'],
  ['delete', 'OLD TABLE AS old_rows'],
] as const;

/**
 * The DDL that makes the `watched` tables tell their changes: the function when it is missing or another version's,
 * each trigger that is missing. None when all are there, as at every start but the first (no lock on the tables).
 */
async function missingChangeTriggers(query: Query, watched: readonly string[]): Promise<string[]> {
  const [changeFunction] = await query<{ source: string }>(
    "SELECT prosrc AS source FROM pg_proc WHERE proname = 'gateway_notify_change' AND pronamespace = current_schema()::regnamespace",
  );
  const present = await query<{ trigger: string }>(
    `SELECT c.relname || '.' || t.tgname AS trigger FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = current_schema()::regnamespace AND starts_with(t.tgname, 'gateway_changes_')`,
  );
  const have = new Set(present.map((row) => row.trigger));
  const statements =
    changeFunction?.source === CHANGE_FUNCTION_BODY
      ? []
      : [`CREATE OR REPLACE FUNCTION gateway_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$${CHANGE_FUNCTION_BODY}$$;`];
  for (const table of watched) {
    for (const [event, transition] of CHANGE_EVENTS) {
      if (have.has(`${table}.gateway_changes_${event}`)) continue;
      statements.push(
        `CREATE OR REPLACE TRIGGER gateway_changes_${event} AFTER ${event.toUpperCase()} ON ${table} REFERENCING ${transition} ` +
          'FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_change();',
      );
    }
  }
  return statements;
}

/** A channel name LISTEN can take unquoted-safe: lowercase letters, digits and `_`, at most 63 bytes. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresDriver implements SqlDriver {
  private readonly pool: pg.Pool;
  private readonly feed = new ChangeFeed();
  private readonly appliedSets = new AppliedSets();
  /** Who listens on which channel (the change feed is one of them, added with its first listener). */
  private readonly channels = new Map<string, Set<ChannelListener>>();
  private listener?: pg.Client;
  /** The backend pid of the LISTEN connection while it is up. */
  private listenerPid?: number;
  private listens = 0;
  /** Whether the LISTEN connection is up (so that a failure is logged once, not at every attempt to reopen it). */
  private listening = true;
  private closed = false;
  readonly messaging: SqlMessaging = {
    listen: (channel, listener) => this.listenTo(channel, listener),
    notify: async (channel, payload) => {
      await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    connectedBackends: async (pids) => {
      const { rows } = await this.pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids]);
      return new Set(rows.map((row) => row.pid));
    },
  };

  constructor(private readonly url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 10, types, ...connectionOptions });
    this.pool.on('error', (error) => console.error('PostgreSQL: an idle connection failed:', error.message));
  }

  migrate(set: MigrationSet): Promise<void> {
    return this.appliedSets.once(set, (each) => this.apply(each));
  }

  read<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', work);
  }

  write<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN', async (query) => {
      await query('SELECT pg_advisory_xact_lock(?)', [WRITE_LOCK_KEY]);
      return work(query);
    });
  }

  /** A transaction of its own, without the data writers' lock (bookkeeping tables are not watched: no NOTIFY). */
  record<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.transaction('BEGIN', work);
  }

  onChange(listener: ChangeListener): () => void {
    const remove = this.feed.add(listener);
    if (!this.channels.has(CHANGE_CHANNEL)) {
      this.listenTo(CHANGE_CHANNEL, {
        message: (payload) => this.feed.emit([changeOfPayload(payload)]),
        listening: (_pid, again) => {
          if (!again) return;
          console.log('PostgreSQL: listening again; the change listeners hear of any change');
          this.feed.emit([ANY_CHANGE]);
        },
      });
    }
    return remove;
  }

  isUnreachable(error: unknown): boolean {
    return isUnreachable(error);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  /**
   * Applies the migrations of `set` this database has not had, then creates the missing triggers of its watched tables,
   * in one transaction under the writers' advisory lock: instances starting together apply each migration once.
   */
  private async apply(set: MigrationSet): Promise<void> {
    const watched = watchedTablesOf(set);
    await this.write(async (query) => {
      await query(CREATE_MIGRATIONS_TABLE);
      const [row] = await query<{ version: number }>('SELECT version FROM gateway_migrations WHERE name = ?', [set.name]);
      const applied = row?.version ?? 0;
      for (const sql of set.postgres.slice(applied)) await query(sql);
      if (set.postgres.length > applied) {
        await query(
          `INSERT INTO gateway_migrations (name, version) VALUES (?, ?)
           ON CONFLICT (name) DO UPDATE SET version = excluded.version, applied_at = now()`,
          [set.name, set.postgres.length],
        );
      }
      const triggers = watched.length ? await missingChangeTriggers(query, watched) : [];
      if (triggers.length) await query(triggers.join('\n'));
    });
  }

  private async transaction<T>(begin: string, work: (query: Query) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A checked-out client has no 'error' listener of the pool's: when its connection dies (the server stops), the
    // error is kept here (the pending query fails on its own) instead of becoming an uncaught exception.
    const keepError = (error: Error) => (broken = error);
    client.on('error', keepError);
    try {
      await client.query(begin);
      const result = await work(async <Row>(sql: string, params?: unknown[]) => {
        return (await client.query(numbered(sql), params)).rows as Row[];
      });
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.off('error', keepError);
      client.release(broken);
    }
  }

  /** Adds a listener of `channel` on the LISTEN connection (opened when needed); returns a function that removes it. */
  private listenTo(channel: string, listener: ChannelListener): () => void {
    if (!CHANNEL_NAME.test(channel)) throw new Error(`Not a channel name LISTEN takes: ${JSON.stringify(channel)}`);
    let listeners = this.channels.get(channel);
    if (!listeners) {
      this.channels.set(channel, (listeners = new Set()));
      const client = this.listener;
      const pid = this.listenerPid;
      if (client && pid !== undefined) {
        client.query(`LISTEN ${channel}`).then(
          () => listener.listening?.(pid, false),
          (error: Error) => console.error(`PostgreSQL: LISTEN ${channel} failed:`, error.message),
        );
      }
    } else if (this.listenerPid !== undefined) {
      listener.listening?.(this.listenerPid, false);
    }
    listeners.add(listener);
    this.listen();
    return () => {
      listeners.delete(listener);
      if (listeners.size || this.channels.get(channel) !== listeners) return;
      this.channels.delete(channel);
      this.listener?.query(`UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  /**
   * One LISTEN connection per process, opened with the first listener and checked every LISTEN_CHECK_MS. When it
   * drops it is opened again (every RELISTEN_MS until it works), and each listener hears that it is listening again,
   * since notifications sent meanwhile are lost (the change feed tells of any change).
   */
  private listen(): void {
    if (this.listener || this.closed) return;
    const client = new pg.Client({ connectionString: this.url, ...connectionOptions });
    this.listener = client;
    let check: NodeJS.Timeout | undefined;
    const relisten = (error?: Error) => {
      if (this.listener !== client) return;
      // Logged once per outage: while the database stays down, each new attempt fails the same way.
      if (error && this.listening) console.error('PostgreSQL: the LISTEN connection failed:', error.message);
      this.listening = false;
      this.listener = undefined;
      this.listenerPid = undefined;
      clearInterval(check);
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => this.listen(), RELISTEN_MS).unref();
    };
    client.on('notification', ({ channel, payload }) => {
      for (const listener of [...(this.channels.get(channel) ?? [])]) {
        try {
          listener.message(payload ?? '');
        } catch (error) {
          console.error(`PostgreSQL: a listener of ${channel} failed:`, error);
        }
      }
    });
    client.on('error', relisten);
    client.on('end', () => relisten());
    client
      .connect()
      .then(async () => {
        const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
        for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
        return pid;
      })
      .then((pid) => {
        if (this.listener !== client) return;
        this.listening = true;
        this.listenerPid = pid;
        check = setInterval(() => client.query('SELECT 1').catch(relisten), LISTEN_CHECK_MS).unref();
        const again = this.listens++ > 0;
        for (const listeners of this.channels.values()) for (const listener of listeners) listener.listening?.(pid, again);
      }, relisten);
  }
}
