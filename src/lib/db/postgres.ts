// The PostgreSQL backend (DATABASE_URL): a pool, migrations and writes under an advisory lock, LISTEN/NOTIFY changes.
import pg from 'pg';
import { ChangeFeed, type Query, type SqlDriver } from './driver';
import { postgresMigrations } from './migrations';

/** The channel the migrations' triggers NOTIFY on every change of a board table. */
const CHANGE_CHANNEL = 'board_changes';
/** Advisory lock held by every write transaction (and the migrations): one writer at a time, across instances. */
const WRITE_LOCK_KEY = 4_611_917;
/** Wait before reopening a dropped LISTEN connection. */
const RELISTEN_MS = 1000;

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

export class PostgresDriver implements SqlDriver {
  private readonly pool: pg.Pool;
  private readonly feed = new ChangeFeed();
  private listener?: pg.Client;
  private listens = 0;
  private closed = false;

  constructor(private readonly url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 10, types });
    this.pool.on('error', (error) => console.error('PostgreSQL: an idle connection failed:', error));
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

  onChange(listener: () => void): () => void {
    const remove = this.feed.add(listener);
    this.listen();
    return remove;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  private async transaction<T>(begin: string, work: (query: Query) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
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
      client.release(broken);
    }
  }

  /**
   * One LISTEN connection per process, opened with the first listener. When it drops it is opened again, and a change
   * is emitted then, since notifications sent meanwhile are lost.
   */
  private listen(): void {
    if (this.listener || this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    this.listener = client;
    const relisten = (error?: Error) => {
      if (this.listener !== client) return;
      if (error) console.error('PostgreSQL: the LISTEN connection failed:', error);
      this.listener = undefined;
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => this.listen(), RELISTEN_MS).unref();
    };
    client.on('notification', () => this.feed.emit());
    client.on('error', relisten);
    client.on('end', () => relisten());
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANGE_CHANNEL}`))
      .then(() => {
        if (this.listens++ > 0) this.feed.emit();
      }, relisten);
  }
}
