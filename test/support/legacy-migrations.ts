// Fixture: the single migration list per dialect of the releases before the store split (demo and gateway tables
// mixed, tracked by SQLite's `user_version` and PostgreSQL's `schema_migrations`), copied as they were, so that a test
// can make a database of that time and open it with today's migration sets.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestDatabase } from './databases';

/** The demo users both dialects seed in their first migration (a literal: migrations must never change). */
const SEED_DEMO_USERS = `INSERT INTO users (name, email, role, created_at) VALUES
     ('Ada Lovelace', 'ada@example.com', 'admin', '2026-01-05T09:00:00.000Z'),
     ('Alan Turing', 'alan@example.com', 'member', '2026-02-11T10:30:00.000Z'),
     ('Grace Hopper', 'grace@example.com', 'member', '2026-03-20T14:15:00.000Z');`;

/**
 * A few demo tasks, so that a new board shows something: only into an empty board (a database that already has tasks
 * keeps them as they are), assigned by email to the demo users that are still there. `timestamp` is the dialect's
 * literal of their fixed creation time (a literal: migrations must never change).
 */
const seedDemoTasks = (timestamp: string) => `WITH demo (title, description, status, position, assignee_email) AS (VALUES
     ('Try the board in an MCP client', 'Ask an agent what is on the board; MCP Apps hosts show it in the chat.', 'todo', 0, 'ada@example.com'),
     ('Write the release notes', '', 'todo', 1, NULL),
     ('Review the OAuth sign-in', 'Explorer and board: sign in, refresh, sign out.', 'in_progress', 0, 'grace@example.com'),
     ('Set up the MCP gateway', 'One back end, two doors: REST and MCP.', 'done', 0, 'alan@example.com'))
   INSERT INTO tasks (title, description, status, position, assignee_id, created_at, updated_at)
   SELECT title, description, status, position, (SELECT id FROM users WHERE email = assignee_email), ${timestamp}, ${timestamp}
   FROM demo
   WHERE NOT EXISTS (SELECT 1 FROM tasks);`;

/** SQLite: the index + 1 was the database's `user_version` after each one. */
export const legacySqliteMigrations: string[] = [
  `CREATE TABLE users (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL,
     email TEXT NOT NULL UNIQUE,
     role TEXT NOT NULL DEFAULT 'member',
     created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   );
   ${SEED_DEMO_USERS}`,
  `CREATE TABLE tasks (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     title TEXT NOT NULL,
     description TEXT NOT NULL DEFAULT '',
     status TEXT NOT NULL CHECK (status IN ('todo', 'in_progress', 'done')),
     position INTEGER NOT NULL CHECK (position >= 0),
     assignee_id INTEGER REFERENCES users (id) ON DELETE SET NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX tasks_by_column ON tasks (status, position);
   CREATE INDEX tasks_by_assignee ON tasks (assignee_id);`,
  // Who created a task: the OAuth subject (`sub`) of the caller; null when auth was off.
  'ALTER TABLE tasks ADD COLUMN created_by TEXT;',
  seedDemoTasks("'2026-04-01T09:00:00.000Z'"),
  // The events of 2025-era MCP sessions, replayed to a client that reconnects with Last-Event-ID (created_at: ms).
  `CREATE TABLE mcp_events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     session_id TEXT NOT NULL,
     stream_id TEXT NOT NULL,
     message TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX mcp_events_by_stream ON mcp_events (session_id, stream_id, id);
   CREATE INDEX mcp_events_by_age ON mcp_events (created_at);`,
  // Long work (REST jobs and MCP tasks, one table; times in ms): who may see it, what to run again after input, its
  // state, progress, outcome, and the heartbeat of the instance running it (stale → failed).
  `CREATE TABLE jobs (
     id TEXT PRIMARY KEY,
     owner TEXT NOT NULL,
     door TEXT NOT NULL,
     tool TEXT NOT NULL,
     input TEXT NOT NULL,
     answers TEXT NOT NULL DEFAULT '{}',
     status TEXT NOT NULL,
     status_message TEXT,
     progress TEXT,
     input_requests TEXT,
     outcome TEXT,
     committed INTEGER NOT NULL DEFAULT 0,
     instance TEXT NOT NULL,
     heartbeat_at INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     ttl_ms INTEGER NOT NULL
   );
   CREATE INDEX jobs_running ON jobs (status, heartbeat_at);
   CREATE INDEX jobs_by_owner ON jobs (owner, status);`,
];

/** The three statement triggers of `table` that name its changed rows (NEW rows inserted or updated, OLD deleted). */
function rowsNamedOnChange(table: string): string {
  const trigger = (event: string, transition: string) =>
    `CREATE TRIGGER ${table}_${event.toLowerCase()}_notify AFTER ${event} ON ${table} REFERENCING ${transition} ` +
    'FOR EACH STATEMENT EXECUTE FUNCTION notify_board_change();';
  return [trigger('INSERT', 'NEW TABLE AS new_rows'), trigger('UPDATE', 'NEW TABLE AS new_rows'), trigger('DELETE', 'OLD TABLE AS old_rows')].join('\n');
}

/**
 * PostgreSQL: version N was the N-th entry, recorded in `schema_migrations`. Triggers on every table the board shows
 * send NOTIFY `board_changes` on commit, so every instance listening hears every change: since version 6 one per
 * statement naming its rows, `<table>:<id>,<id>…` (`<table>:` when the ids pass 7,800 bytes; before, `<table>` only).
 */
const legacyPostgresMigrations: string[] = [
  `CREATE TABLE users (
     id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     name text NOT NULL,
     email text NOT NULL UNIQUE,
     role text NOT NULL DEFAULT 'member' CHECK (role IN ('admin', 'member')),
     created_at timestamptz NOT NULL DEFAULT now()
   );
   ${SEED_DEMO_USERS}
   CREATE TABLE tasks (
     id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     title text NOT NULL,
     description text NOT NULL DEFAULT '',
     status text NOT NULL CHECK (status IN ('todo', 'in_progress', 'done')),
     position integer NOT NULL CHECK (position >= 0),
     assignee_id integer REFERENCES users (id) ON DELETE SET NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL
   );
   CREATE INDEX tasks_by_column ON tasks (status, position);
   CREATE INDEX tasks_by_assignee ON tasks (assignee_id);
   CREATE FUNCTION notify_board_change() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('board_changes', TG_TABLE_NAME);
     RETURN NULL;
   END $$;
   CREATE TRIGGER users_notify AFTER INSERT OR UPDATE OR DELETE ON users
     FOR EACH ROW EXECUTE FUNCTION notify_board_change();
   CREATE TRIGGER tasks_notify AFTER INSERT OR UPDATE OR DELETE ON tasks
     FOR EACH ROW EXECUTE FUNCTION notify_board_change();`,
  'ALTER TABLE tasks ADD COLUMN created_by text;',
  seedDemoTasks("timestamptz '2026-04-01T09:00:00.000Z'"),
  // 2025-era MCP sessions (times in ms): their events (resumability), which instance holds each session, how to tell
  // whether an instance still runs (the backend pid of its LISTEN connection), and relayed messages too large for NOTIFY.
  `CREATE TABLE mcp_events (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     session_id text NOT NULL,
     stream_id text NOT NULL,
     message text NOT NULL,
     created_at bigint NOT NULL
   );
   CREATE INDEX mcp_events_by_stream ON mcp_events (session_id, stream_id, id);
   CREATE INDEX mcp_events_by_age ON mcp_events (created_at);
   CREATE TABLE mcp_instances (
     id text PRIMARY KEY,
     listener_pid integer NOT NULL,
     seen_at bigint NOT NULL
   );
   CREATE TABLE mcp_sessions (
     id text PRIMARY KEY,
     owner text NOT NULL,
     principal text NOT NULL,
     created_at bigint NOT NULL
   );
   CREATE INDEX mcp_sessions_by_owner ON mcp_sessions (owner);
   CREATE TABLE mcp_relay_payloads (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     payload text NOT NULL,
     created_at bigint NOT NULL
   );`,
  // Long work (REST jobs and MCP tasks, one table; times in ms), as in SQLite.
  `CREATE TABLE jobs (
     id text PRIMARY KEY,
     owner text NOT NULL,
     door text NOT NULL,
     tool text NOT NULL,
     input text NOT NULL,
     answers text NOT NULL DEFAULT '{}',
     status text NOT NULL,
     status_message text,
     progress text,
     input_requests text,
     outcome text,
     committed integer NOT NULL DEFAULT 0,
     instance text NOT NULL,
     heartbeat_at bigint NOT NULL,
     created_at bigint NOT NULL,
     updated_at bigint NOT NULL,
     ttl_ms bigint NOT NULL
   );
   CREATE INDEX jobs_running ON jobs (status, heartbeat_at);
   CREATE INDEX jobs_by_owner ON jobs (owner, status);`,
  // Board changes name their rows (resource subscriptions notify only the subscribers of what changed): one NOTIFY
  // per statement, from its transition table.
  `CREATE OR REPLACE FUNCTION notify_board_change() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE ids text;
   BEGIN
     IF TG_OP = 'DELETE' THEN SELECT string_agg(id::text, ',') INTO ids FROM old_rows;
     ELSE SELECT string_agg(id::text, ',') INTO ids FROM new_rows;
     END IF;
     IF ids IS NULL THEN RETURN NULL; END IF;
     IF length(ids) > 7800 THEN ids := ''; END IF;
     PERFORM pg_notify('board_changes', TG_TABLE_NAME || ':' || ids);
     RETURN NULL;
   END $$;
   DROP TRIGGER users_notify ON users;
   DROP TRIGGER tasks_notify ON tasks;
   ${['users', 'tasks'].map(rowsNamedOnChange).join('\n')}`,
];

/**
 * Makes `database` what the releases before the split left: every migration of the old list applied and tracked
 * their way (`user_version`, `schema_migrations`), then `sql` run (the rows a user of that release had added).
 */
export async function writeLegacyDatabase(database: TestDatabase, sql: string): Promise<void> {
  if (database.backend === 'sqlite') {
    const db = new Database(database.options.databaseFile);
    for (const [index, migration] of legacySqliteMigrations.entries()) {
      db.exec(migration);
      db.pragma(`user_version = ${index + 1}`);
    }
    db.exec(sql);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: database.options.databaseUrl });
  await client.connect();
  try {
    await client.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const [index, migration] of legacyPostgresMigrations.entries()) {
      await client.query(migration);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [index + 1]);
    }
    await client.query(sql);
  } finally {
    await client.end();
  }
}
