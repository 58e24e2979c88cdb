// The PostgreSQL backend (DATABASE_URL): a pool, migrations and writes under an advisory lock, LISTEN/NOTIFY changes.
import 'server-only';
import pg from 'pg';
import { ANY_CHANGE, ChangeFeed, changeOfPayload, type ChangeListener, type ChannelListener, type Query, type SqlDriver, type SqlMessaging } from './driver.js';
import { postgresMigrations } from './migrations.js';

/** The channel the migrations' triggers NOTIFY on every change of a board table. */
const CHANGE_CHANNEL = 'board_changes';
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

/** `?` placeholders as PostgreSQL numbers them: `$1`, `$2`, … (the store's SQL has no `?` inside literals). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/** A channel name LISTEN can take unquoted-safe: lowercase letters, digits and `_`, at most 63 bytes. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresDriver implements SqlDriver {
  private readonly pool: pg.Pool;
  private readonly feed = new ChangeFeed();
  /** Who listens on which channel (the board's change feed is one of them, added with its first listener). */
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

  async migrate(): Promise<void> {
    await this.write(async (query) => {
      await query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const [{ applied }] = await query<{ applied: number }>(
        'SELECT CAST(COALESCE(MAX(version), 0) AS INTEGER) AS applied FROM schema_migrations',
      );
      for (const [index, sql] of postgresMigrations.entries()) {
        if (index < applied) continue;
        await query(sql);
        await query('INSERT INTO schema_migrations (version) VALUES (?)', [index + 1]);
      }
    });
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

  /** A transaction of its own, without the board writers' lock (the migrations' triggers notify only for board tables). */
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
          console.log('PostgreSQL: listening again; the boards get a fresh snapshot');
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
   * since notifications sent meanwhile are lost (every board gets a fresh snapshot).
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
