// Fixture: the single SQLite migration list of the releases before the store split (demo and gateway tables mixed,
// tracked by `user_version`), copied as it was, so that a test can make a database of that time and open it with
// today's migration sets.

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
