// The store the services use: the demo's users and tasks, in tables of the app (its migration set `reference-app`) in
// the gateway's database, SQLite by default or PostgreSQL with DATABASE_URL.
import 'server-only';
import { type ChangeListener, database, type Query, ServiceUnavailableError, type SqlDriver } from 'vovk-mcp-gateway';
import { REFERENCE_APP_MIGRATIONS } from './migrations';

/** The board's columns, in order. */
export const TASK_STATUSES = ['todo', 'in_progress', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const USER_ROLES = ['admin', 'member'] as const;
type UserRole = (typeof USER_ROLES)[number];

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: UserRole;
  createdAt: string;
}

export interface TaskRecord {
  id: number;
  title: string;
  description: string;
  status: TaskStatus;
  /** 0-based place in its column; the positions of a column are always 0…n-1. */
  position: number;
  assigneeId: number | null;
  /** Who created it: the caller's OAuth subject, or null (auth off, or the static GATEWAY_TOKEN). */
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export type NewUser = Pick<UserRecord, 'name' | 'email'> & { role?: UserRole };
/** The fields of a user an update may change. */
export type UserChanges = Partial<Pick<UserRecord, 'name' | 'email' | 'role'>>;
export type NewTask = Pick<TaskRecord, 'title'> & Partial<Pick<TaskRecord, 'description' | 'status' | 'assigneeId' | 'createdBy'>>;
export type TaskChanges = Partial<Pick<TaskRecord, 'title' | 'description' | 'assigneeId'>>;
/** Where a task goes: a column, and a place in it (default: the end; clamped to the column). */
export type TaskMove = { status: TaskStatus; position?: number };
/** A window of a list: how many rows to skip, and the most to answer (none: every row). */
export type Page = { offset?: number; limit?: number };
export type TaskFilter = { status?: TaskStatus; assigneeId?: number } & Page;
/** What deleting a user did: the user as it was, and the tasks that lost their assignee. */
export type DeletedUser = { user: UserRecord; unassignedTaskIds: number[] };

const storeErrorBrand = Symbol.for('reference-app.store-error');

/** A write the data refuses; services turn it into an HTTP status. */
export class StoreError extends Error {
  readonly [storeErrorBrand] = true;

  constructor(
    readonly code: 'email_taken' | 'unknown_assignee',
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }

  /**
   * Whether `error` is a StoreError. Unlike `instanceof`, also true across the server's bundles: the store is one
   * per process, opened by whichever bundle came first, each bundle with its own copy of this class.
   */
  static is(error: unknown): error is StoreError {
    return typeof error === 'object' && error !== null && storeErrorBrand in error;
  }
}

const USER_COLUMNS = 'id, name, email, role, created_at AS "createdAt"';
const TASK_COLUMNS =
  'id, title, description, status, position, assignee_id AS "assigneeId", created_by AS "createdBy", created_at AS "createdAt", updated_at AS "updatedAt"';
const COLUMN_ORDER = `CASE status ${TASK_STATUSES.map((status, index) => `WHEN '${status}' THEN ${index}`).join(' ')} END`;

const now = () => new Date().toISOString();

async function userById(query: Query, id: number): Promise<UserRecord | undefined> {
  return (await query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`, [id]))[0];
}

/** The LIMIT/OFFSET clause of `page` (both dialects) and its parameters; nothing for a whole list. */
function pageClause({ offset, limit }: Page): { sql: string; params: number[] } {
  if (offset === undefined && limit === undefined) return { sql: '', params: [] };
  return { sql: 'LIMIT ? OFFSET ?', params: [limit ?? Number.MAX_SAFE_INTEGER, offset ?? 0] };
}

function allUsers(query: Query, page: Page = {}): Promise<UserRecord[]> {
  const paged = pageClause(page);
  return query<UserRecord>(`SELECT ${USER_COLUMNS} FROM users ORDER BY id ${paged.sql}`, paged.params);
}

/** Tasks column by column, each column in board order, optionally only of one status and/or assignee. */
function tasksWhere(query: Query, { status, assigneeId, ...page }: TaskFilter): Promise<TaskRecord[]> {
  const filters = Object.entries({ status, assignee_id: assigneeId }).filter(([, value]) => value !== undefined);
  const where = filters.length ? `WHERE ${filters.map(([column]) => `${column} = ?`).join(' AND ')}` : '';
  const paged = pageClause(page);
  return query<TaskRecord>(`SELECT ${TASK_COLUMNS} FROM tasks ${where} ORDER BY ${COLUMN_ORDER}, position ${paged.sql}`, [
    ...filters.map(([, value]) => value),
    ...paged.params,
  ]);
}

async function taskById(query: Query, id: number): Promise<TaskRecord | undefined> {
  return (await query<TaskRecord>(`SELECT ${TASK_COLUMNS} FROM tasks WHERE id = ?`, [id]))[0];
}

async function columnSize(query: Query, status: TaskStatus): Promise<number> {
  const [{ size }] = await query<{ size: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS size FROM tasks WHERE status = ?', [
    status,
  ]);
  return size;
}

async function assertAssignee(query: Query, assigneeId: number | null | undefined): Promise<void> {
  if (assigneeId == null || (await userById(query, assigneeId))) return;
  throw new StoreError('unknown_assignee', `User ${assigneeId} not found: a task can only be assigned to an existing user`);
}

/**
 * How many rows one INSERT of `insertTasks` carries, largest first: a long list goes in chunks of the largest size and
 * its rest in smaller ones, so that few statements carry many rows (8 parameters a row, well under SQLite's 32,766 and
 * PostgreSQL's 65,535) while the SQL texts stay few (the SQLite driver keeps one prepared statement per text).
 */
const INSERT_CHUNK_ROWS = [1000, 100, 10, 1];

/** Rows of `total` by INSERT, in order: as many of the largest chunk as fit, then the next size for the rest, … */
function insertChunks(total: number): number[] {
  const chunks: number[] = [];
  let left = total;
  for (const size of INSERT_CHUNK_ROWS) for (; left >= size; left -= size) chunks.push(size);
  return chunks;
}

/** Inserts tasks at the end of their columns, in the order given (assignees not checked); returns them in that order. */
async function insertTasks(query: Query, tasks: NewTask[]): Promise<TaskRecord[]> {
  const nextPosition = new Map<TaskStatus, number>();
  for (const status of new Set(tasks.map((task) => task.status ?? 'todo'))) nextPosition.set(status, await columnSize(query, status));
  const at = now();
  const rows = tasks.map(({ title, description = '', status = 'todo', assigneeId = null, createdBy = null }) => {
    const position = nextPosition.get(status)!;
    nextPosition.set(status, position + 1);
    return [title, description, status, position, assigneeId, createdBy, at, at];
  });
  const inserted: TaskRecord[] = [];
  let start = 0;
  for (const size of insertChunks(rows.length)) {
    const chunk = rows.slice(start, (start += size));
    inserted.push(
      ...(await query<TaskRecord>(
        `INSERT INTO tasks (title, description, status, position, assignee_id, created_by, created_at, updated_at)
         VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} RETURNING ${TASK_COLUMNS}`,
        chunk.flat(),
      )),
    );
  }
  // RETURNING promises no order: each task is found again by its place, which is unique.
  const byPlace = new Map(inserted.map((task) => [`${task.status} ${task.position}`, task]));
  return rows.map(([, , status, position]) => byPlace.get(`${status} ${position}`)!);
}

/** Closes the gap a task leaves at `position` of its column `status`. */
async function closeGap(query: Query, { status, position }: Pick<TaskRecord, 'status' | 'position'>): Promise<void> {
  await query('UPDATE tasks SET position = position - 1 WHERE status = ? AND position > ?', [status, position]);
}

/** Users and tasks in the tables of the app's migration set. */
export class Store {
  /** The database under it, shared with the gateway (its own `gateway_` tables are there too). */
  constructor(readonly driver: SqlDriver) {}

  /** Resolves once the app's migrations are applied (run on first use; the server calls it when it starts; tried again after a failure). */
  ready(): Promise<void> {
    return this.driver.migrate(REFERENCE_APP_MIGRATIONS);
  }

  async listUsers(page: Page = {}): Promise<UserRecord[]> {
    return this.read((query) => allUsers(query, page));
  }

  async getUser(id: number): Promise<UserRecord | undefined> {
    return this.read((query) => userById(query, id));
  }

  /** Adds a user; a `StoreError('email_taken')` when another user has that email. */
  async createUser({ name, email, role = 'member' }: NewUser): Promise<UserRecord> {
    return this.write(async (query) => {
      if ((await query('SELECT id FROM users WHERE email = ?', [email])).length) {
        throw new StoreError('email_taken', `A user with email ${email} already exists`);
      }
      const [user] = await query<UserRecord>(
        `INSERT INTO users (name, email, role, created_at) VALUES (?, ?, ?, ?) RETURNING ${USER_COLUMNS}`,
        [name, email, role, now()],
      );
      return user;
    });
  }

  /** Changes a user's name, email or role (fields left out keep their value); `StoreError('email_taken')` on a taken email. */
  async updateUser(id: number, changes: UserChanges): Promise<UserRecord | undefined> {
    return this.write(async (query) => {
      const user = await userById(query, id);
      if (!user) return undefined;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const { name, email, role } = { ...user, ...defined };
      if ((await query('SELECT id FROM users WHERE email = ? AND id <> ?', [email, id])).length) {
        throw new StoreError('email_taken', `A user with email ${email} already exists`);
      }
      const [updated] = await query<UserRecord>(
        `UPDATE users SET name = ?, email = ?, role = ? WHERE id = ? RETURNING ${USER_COLUMNS}`,
        [name, email, role, id],
      );
      return updated;
    });
  }

  /** Deletes a user; the tasks assigned to them stay on the board, unassigned. */
  async deleteUser(id: number): Promise<DeletedUser | undefined> {
    return this.write(async (query) => {
      const user = await userById(query, id);
      if (!user) return undefined;
      const unassigned = await query<{ id: number }>(
        'UPDATE tasks SET assignee_id = NULL, updated_at = ? WHERE assignee_id = ? RETURNING id',
        [now(), id],
      );
      await query('DELETE FROM users WHERE id = ?', [id]);
      return { user, unassignedTaskIds: unassigned.map((task) => task.id).sort((a, b) => a - b) };
    });
  }

  /** Tasks column by column, each column in board order. */
  async listTasks(filter: TaskFilter = {}): Promise<TaskRecord[]> {
    return this.read((query) => tasksWhere(query, filter));
  }

  /** Every task and every user, read in one transaction so that they agree (no task names a user already gone). */
  async tasksAndUsers(): Promise<{ tasks: TaskRecord[]; users: UserRecord[] }> {
    return this.read(async (query) => ({ tasks: await tasksWhere(query, {}), users: await allUsers(query) }));
  }

  async getTask(id: number): Promise<TaskRecord | undefined> {
    return this.read((query) => taskById(query, id));
  }

  /**
   * The ids of the tasks whose id starts with `typed` or whose title contains it (any case), at most `limit`: those by
   * id first, each kind lowest first; and how many match.
   */
  async taskIdsMatching(typed: string, limit: number): Promise<{ ids: number[]; total: number }> {
    const pattern = typed.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`);
    const byId = "CAST(id AS TEXT) LIKE ? ESCAPE '\\'";
    const where = `WHERE ${byId} OR LOWER(title) LIKE ? ESCAPE '\\'`;
    const values = [`${pattern}%`, `%${pattern}%`];
    return this.read(async (query) => {
      const order = `ORDER BY CASE WHEN ${byId} THEN 0 ELSE 1 END, id`;
      const rows = await query<{ id: number }>(`SELECT id FROM tasks ${where} ${order} LIMIT ?`, [...values, values[0], limit]);
      const [{ total }] = await query<{ total: number }>(`SELECT CAST(COUNT(*) AS INTEGER) AS total FROM tasks ${where}`, values);
      return { ids: rows.map((row) => Number(row.id)), total: Number(total) };
    });
  }

  /** Adds a task at the end of its column (default: todo). */
  async createTask(task: NewTask): Promise<TaskRecord> {
    return this.write(async (query) => {
      await assertAssignee(query, task.assigneeId);
      const [created] = await insertTasks(query, [task]);
      return created;
    });
  }

  /**
   * Adds every task at the end of its column, in the order given, in one write transaction: all of them or none.
   * `beforeCommit` runs last inside that transaction (what it throws rolls everything back). A
   * `StoreError('unknown_assignee')` when an assignee does not exist. Returns the tasks in the order given.
   */
  async importTasks(
    tasks: NewTask[],
    { beforeCommit }: { beforeCommit: (query: Query) => Promise<void> },
  ): Promise<TaskRecord[]> {
    return this.write(async (query) => {
      for (const assigneeId of new Set(tasks.map((task) => task.assigneeId))) await assertAssignee(query, assigneeId);
      const imported = await insertTasks(query, tasks);
      await beforeCommit(query);
      return imported;
    });
  }

  /** Changes only the fields given (`assigneeId: null` unassigns), so concurrent edits of other fields are kept. */
  async updateTask(id: number, changes: TaskChanges): Promise<TaskRecord | undefined> {
    return this.write(async (query) => {
      const task = await taskById(query, id);
      if (!task) return undefined;
      await assertAssignee(query, changes.assigneeId);
      const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
      const { title, description, assigneeId } = { ...task, ...defined };
      const [updated] = await query<TaskRecord>(
        `UPDATE tasks SET title = ?, description = ?, assignee_id = ?, updated_at = ? WHERE id = ? RETURNING ${TASK_COLUMNS}`,
        [title, description, assigneeId, now(), id],
      );
      return updated;
    });
  }

  /** Moves a task to a place in a column; the tasks around both places shift so positions stay 0…n-1. */
  async moveTask(id: number, { status, position }: TaskMove): Promise<TaskRecord | undefined> {
    return this.write(async (query) => {
      const task = await taskById(query, id);
      if (!task) return undefined;
      const others = (await columnSize(query, status)) - (task.status === status ? 1 : 0);
      const target = Math.min(Math.max(position ?? others, 0), others);
      if (task.status === status && task.position === target) return task;
      await closeGap(query, task);
      await query('UPDATE tasks SET position = position + 1 WHERE status = ? AND position >= ? AND id <> ?', [
        status,
        target,
        id,
      ]);
      const [moved] = await query<TaskRecord>(
        `UPDATE tasks SET status = ?, position = ?, updated_at = ? WHERE id = ? RETURNING ${TASK_COLUMNS}`,
        [status, target, now(), id],
      );
      return moved;
    });
  }

  /** Deletes a task and closes the gap in its column; returns it as it was. */
  async deleteTask(id: number): Promise<TaskRecord | undefined> {
    return this.write(async (query) => {
      const task = await taskById(query, id);
      if (!task) return undefined;
      await query('DELETE FROM tasks WHERE id = ?', [id]);
      await closeGap(query, task);
      return task;
    });
  }

  /** Calls `listener` with the rows of users and tasks that changed, here or in another instance sharing the database. */
  onChange(listener: ChangeListener): () => void {
    return this.driver.onChange(listener);
  }

  /** Closes the database under it (the gateway's too: the server does when it stops). */
  close(): Promise<void> {
    return this.driver.close();
  }

  private read<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.reaching(async () => {
      await this.ready();
      return this.driver.read(work);
    });
  }

  private write<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.reaching(async () => {
      await this.ready();
      return this.driver.write(work);
    });
  }

  /** Runs a transaction; failing to reach the database becomes a `ServiceUnavailableError` (503 on both doors). */
  private async reaching<T>(transaction: () => Promise<T>): Promise<T> {
    try {
      return await transaction();
    } catch (error) {
      if (!this.driver.isUnreachable(error)) throw error;
      this.noteUnreachable(error);
      throw new ServiceUnavailableError(DATABASE_UNAVAILABLE);
    }
  }

  private lastUnreachableLog = 0;

  /** Logs why the database could not be reached, at most every few seconds (an outage fails every request). */
  private noteUnreachable(error: unknown): void {
    if (Date.now() - this.lastUnreachableLog < UNREACHABLE_LOG_EVERY_MS) return;
    this.lastUnreachableLog = Date.now();
    console.error(`[gateway] The database cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** What a client reads when the database cannot be reached (REST 503 with Retry-After, MCP isError). */
const DATABASE_UNAVAILABLE = 'The database is unavailable right now: try again in a few seconds';
const UNREACHABLE_LOG_EVERY_MS = 5000;

const storeKey = Symbol.for('reference-app.store');
type GlobalWithStore = typeof globalThis & { [storeKey]?: Store };

/** The process-wide store, on the gateway's process-wide `database()` (shared by every route bundle of the server). */
export function store(): Store {
  const scope = globalThis as GlobalWithStore;
  const driver = database();
  if (scope[storeKey]?.driver !== driver) scope[storeKey] = new Store(driver);
  return scope[storeKey];
}
