// Ordered schema migrations of the embedded store; the index + 1 is the SQLite user_version after each one.
export const migrations: string[] = [
  `CREATE TABLE users (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     name TEXT NOT NULL,
     email TEXT NOT NULL UNIQUE,
     role TEXT NOT NULL DEFAULT 'member',
     created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   );
   INSERT INTO users (name, email, role, created_at) VALUES
     ('Ada Lovelace', 'ada@example.com', 'admin', '2026-01-05T09:00:00.000Z'),
     ('Alan Turing', 'alan@example.com', 'member', '2026-02-11T10:30:00.000Z'),
     ('Grace Hopper', 'grace@example.com', 'member', '2026-03-20T14:15:00.000Z');`,
];
