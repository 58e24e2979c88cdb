// gateway_jobs: REST jobs and MCP tasks in the gateway's database, bound to their caller, each step one transaction.
import 'server-only';
import type { InputRequest } from '@modelcontextprotocol/server';
import type { Query, SqlDriver } from '../db/driver.js';
import type { ProgressUpdate } from './current-work.js';

/** MCP's task statuses; REST jobs use the same words. */
export type JobStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Statuses of a job that has not ended. */
const ACTIVE = "('working', 'input_required')";

/** How a job ended: the door's result (REST: the procedure's JSON; MCP: the tool result), or an error. */
export type JobOutcome = { result: unknown } | { error: JobError };

/** A job's error: REST `{ statusCode, message, … }`, MCP a JSON-RPC error `{ code, message, data? }`. */
export type JobError = Record<string, unknown> & { message: string };

export interface JobRecord {
  /** Unguessable (a random UUID): it names the job in URLs and task ids. */
  id: string;
  /** Who may see and steer it (see `ownerOf`). */
  owner: string;
  /** The door it was started through, which shapes its result. */
  door: 'rest' | 'mcp';
  /** The tool (MCP) or `METHOD /path` (REST) it runs. */
  tool: string;
  /** The call's arguments, to run it again with input answers (MCP). */
  input: unknown;
  /** Input answers so far, by key. */
  answers: Record<string, unknown>;
  status: JobStatus;
  statusMessage?: string;
  progress?: ProgressUpdate;
  /** While `input_required`: what the caller is asked. */
  inputRequests?: Record<string, InputRequest>;
  outcome?: JobOutcome;
  /** The work passed its point of no return (`commitPoint`): a cancel comes too late. */
  committed: boolean;
  /** The instance running it (or that last ran it). */
  instance: string;
  createdAt: number;
  updatedAt: number;
  /** How long it is kept after it ended (and while it waits for input). */
  ttlMs: number;
}

export type NewJob = Pick<JobRecord, 'id' | 'owner' | 'door' | 'tool' | 'input' | 'answers' | 'instance' | 'ttlMs'>;

type JobRow = {
  id: string;
  owner: string;
  door: 'rest' | 'mcp';
  tool: string;
  input: string;
  answers: string;
  status: JobStatus;
  status_message: string | null;
  progress: string | null;
  input_requests: string | null;
  outcome: string | null;
  committed: number;
  instance: string;
  created_at: number | string;
  updated_at: number | string;
  ttl_ms: number | string;
};

const parsed = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));

function recordOf(row: JobRow): JobRecord {
  return {
    id: row.id,
    owner: row.owner,
    door: row.door,
    tool: row.tool,
    input: parsed(row.input),
    answers: parsed<Record<string, unknown>>(row.answers) ?? {},
    status: row.status,
    statusMessage: row.status_message ?? undefined,
    progress: parsed(row.progress),
    inputRequests: parsed(row.input_requests),
    outcome: parsed(row.outcome),
    committed: Boolean(row.committed),
    instance: row.instance,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    ttlMs: Number(row.ttl_ms),
  };
}

/** Whether a job has ended. */
export const isFinished = (status: JobStatus) => status === 'completed' || status === 'failed' || status === 'cancelled';

/** A job's steps, each one transaction of the database's bookkeeping (they never wait for the data writers). */
export class JobStore {
  constructor(private readonly driver: SqlDriver) {}

  async create(job: NewJob, now = Date.now()): Promise<JobRecord> {
    // Durable: the caller is told the job exists once this returns.
    const [row] = await this.driver.record((query) =>
      query<JobRow>(
        `INSERT INTO gateway_jobs (id, owner, door, tool, input, answers, status, committed, instance, heartbeat_at, created_at, updated_at, ttl_ms)
         VALUES (?, ?, ?, ?, ?, ?, 'working', 0, ?, ?, ?, ?, ?) RETURNING *`,
        [job.id, job.owner, job.door, job.tool, JSON.stringify(job.input ?? null), JSON.stringify(job.answers), job.instance, now, now, now, job.ttlMs],
      ),
      { durable: true },
    );
    return recordOf(row);
  }

  /** The job, if it exists, has not expired and belongs to `owner` (another caller's job reads as missing). */
  async get(id: string, owner: string, now = Date.now()): Promise<JobRecord | undefined> {
    const [row] = await this.driver.read((query) => query<JobRow>('SELECT * FROM gateway_jobs WHERE id = ? AND owner = ?', [id, owner]));
    if (!row) return undefined;
    const job = recordOf(row);
    return expired(job, now) ? undefined : job;
  }

  /** The newest jobs of `owner` started through `door` (at most `limit`), newest first; expired ones left out. */
  async list(owner: string, door: JobRecord['door'], limit: number, now = Date.now()): Promise<JobRecord[]> {
    const rows = await this.driver.read((query) =>
      query<JobRow>('SELECT * FROM gateway_jobs WHERE owner = ? AND door = ? ORDER BY created_at DESC LIMIT ?', [owner, door, limit]),
    );
    return rows.map(recordOf).filter((job) => !expired(job, now));
  }

  /** How many jobs `owner` has that have not ended. */
  async countActive(owner: string): Promise<number> {
    const [{ count }] = await this.driver.read((query) =>
      query<{ count: number }>(`SELECT CAST(COUNT(*) AS INTEGER) AS count FROM gateway_jobs WHERE owner = ? AND status IN ${ACTIVE}`, [owner]),
    );
    return Number(count);
  }

  /** Records progress of a running job; false when it is no longer running (cancelled meanwhile). */
  async progress(id: string, progress: ProgressUpdate, statusMessage: string | undefined): Promise<boolean> {
    const rows = await this.driver.record((query) =>
      query(
        "UPDATE gateway_jobs SET progress = ?, status_message = ?, updated_at = ? WHERE id = ? AND status = 'working' RETURNING id",
        [JSON.stringify(progress), statusMessage ?? null, Date.now(), id],
      ),
    );
    return rows.length > 0;
  }

  /** The job waits for the caller's answers to `inputRequests` (it runs again with them from the start). */
  async awaitInput(id: string, inputRequests: Record<string, InputRequest>, answers: Record<string, unknown>): Promise<JobRecord | undefined> {
    return this.updated(
      "UPDATE gateway_jobs SET status = 'input_required', input_requests = ?, answers = ?, status_message = ?, updated_at = ? WHERE id = ? AND status = 'working' RETURNING *",
      [JSON.stringify(inputRequests), JSON.stringify(answers), 'Waiting for input from the caller', Date.now(), id],
    );
  }

  /** Keeps some of the answers a job of `owner` waits for; it goes on waiting for `inputRequests`, the rest. */
  async answerInput(id: string, owner: string, inputRequests: Record<string, InputRequest>, answers: Record<string, unknown>) {
    return this.updated(
      "UPDATE gateway_jobs SET input_requests = ?, answers = ?, updated_at = ? WHERE id = ? AND owner = ? AND status = 'input_required' RETURNING *",
      [JSON.stringify(inputRequests), JSON.stringify(answers), Date.now(), id, owner],
    );
  }

  /**
   * Takes `answers` for a job of `owner` that waits for input and sets it working again on `instance`; undefined when
   * the job is not waiting for input (or not the owner's).
   */
  async resume(id: string, owner: string, answers: Record<string, unknown>, instance: string): Promise<JobRecord | undefined> {
    const now = Date.now();
    return this.updated(
      `UPDATE gateway_jobs SET status = 'working', answers = ?, input_requests = NULL, status_message = NULL, instance = ?, heartbeat_at = ?, updated_at = ?
       WHERE id = ? AND owner = ? AND status = 'input_required' RETURNING *`,
      [JSON.stringify(answers), instance, now, now, id, owner],
    );
  }

  /** Ends a job that has not ended yet; undefined when it had (a cancel or a sweep came first: that end stands). */
  async finish(id: string, status: Exclude<JobStatus, 'working' | 'input_required'>, outcome: JobOutcome | undefined, statusMessage?: string) {
    return this.updated(
      `UPDATE gateway_jobs SET status = ?, outcome = ?, status_message = ?, input_requests = NULL, updated_at = ? WHERE id = ? AND status IN ${ACTIVE} RETURNING *`,
      [status, outcome ? JSON.stringify(outcome) : null, statusMessage ?? null, Date.now(), id],
      true, // durable: an ended job's outcome is what its caller reads
    );
  }

  /**
   * Cancels a job of `owner` that has not ended and not passed its point of no return. Returns the job as it is after
   * the attempt (`cancelled` true when this cancelled it), or undefined when `owner` has no such job.
   */
  async cancel(id: string, owner: string, statusMessage: string): Promise<{ job: JobRecord; cancelled: boolean } | undefined> {
    return this.driver.record(async (query) => {
      const [row] = await query<JobRow>(
        `UPDATE gateway_jobs SET status = 'cancelled', status_message = ?, input_requests = NULL, updated_at = ?
         WHERE id = ? AND owner = ? AND status IN ${ACTIVE} AND committed = 0 RETURNING *`,
        [statusMessage, Date.now(), id, owner],
      );
      if (row) return { job: recordOf(row), cancelled: true };
      const [current] = await query<JobRow>('SELECT * FROM gateway_jobs WHERE id = ? AND owner = ?', [id, owner]);
      return current && !expired(recordOf(current), Date.now()) ? { job: recordOf(current), cancelled: false } : undefined;
    }, { durable: true });
  }

  /**
   * Inside the procedure's own write transaction: marks the job past its point of no return, unless it was cancelled
   * (false: the caller rolls the transaction back). Both run in one transaction each, so exactly one of them wins.
   */
  async claimCommit(query: Query, id: string): Promise<boolean> {
    const rows = await query(`UPDATE gateway_jobs SET committed = 1 WHERE id = ? AND status IN ${ACTIVE} RETURNING id`, [id]);
    return rows.length > 0;
  }

  /** Beats for the jobs `instance` runs; returns those of `ids` that ended meanwhile (cancelled from elsewhere). */
  async heartbeat(instance: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    return this.driver.record(async (query) => {
      await query("UPDATE gateway_jobs SET heartbeat_at = ? WHERE instance = ? AND status = 'working'", [Date.now(), instance]);
      const marks = ids.map(() => '?').join(', ');
      const ended = await query<{ id: string }>(`SELECT id FROM gateway_jobs WHERE id IN (${marks}) AND status NOT IN ${ACTIVE}`, ids);
      return ended.map((row) => row.id);
    });
  }

  /**
   * Fails the running jobs whose instance stopped beating `staleMs` ago (it died: kill -9, a crash, a lost host), and
   * removes the jobs kept past their time. Returns the jobs it failed.
   */
  async sweep(staleMs: number, now = Date.now()): Promise<JobRecord[]> {
    return this.driver.record(async (query) => {
      const failed = await query<JobRow>(
        `UPDATE gateway_jobs SET status = 'failed', outcome = ?, status_message = ?, updated_at = ?
         WHERE status = 'working' AND heartbeat_at < ? RETURNING *`,
        [JSON.stringify({ error: { message: STALE_MESSAGE } }), STALE_MESSAGE, now, now - staleMs],
      );
      await query(`DELETE FROM gateway_jobs WHERE status <> 'working' AND updated_at + ttl_ms < ?`, [now]);
      return failed.map(recordOf);
    });
  }

  private async updated(sql: string, params: unknown[], durable = false): Promise<JobRecord | undefined> {
    const [row] = await this.driver.record((query) => query<JobRow>(sql, params), { durable });
    return row && recordOf(row);
  }
}

/** Why a job failed when its instance stopped while running it. */
const STALE_MESSAGE = 'The gateway instance running it stopped unexpectedly (no heartbeat): the work did not finish';

/** A job that ended (or waits for input) longer ago than its TTL: about to be removed, and no longer served. */
function expired(job: JobRecord, now: number): boolean {
  return job.status !== 'working' && job.updatedAt + job.ttlMs < now;
}
