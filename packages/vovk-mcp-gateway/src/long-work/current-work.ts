// Long work inside any procedure, on either door: report progress, see cancellation, and commit past the point of no return.
import 'server-only';
import type { Query } from '../db/driver.js';
import { requestContext } from '../request-context.js';

/** How far a procedure has got: `done` of `total` (when known) units, and a line for people. */
export interface ProgressUpdate {
  done: number;
  total?: number;
  message?: string;
}

/** Thrown where work stops because its caller cancelled it (or a shutdown's grace ran out). */
export class WorkCancelled extends Error {
  constructor(reason?: unknown) {
    super(typeof reason === 'string' ? reason : 'The work was cancelled');
    this.name = 'WorkCancelled';
  }
}

/**
 * What the gateway gives the procedure it runs: a REST request, an MCP tool call, a REST job or an MCP task. Set in the
 * request context by the door (or the task runner), read through the functions below.
 */
export interface Work {
  /** Aborts when the caller cancels or disconnects, or when a shutdown's grace runs out. */
  readonly signal: AbortSignal;
  /** Passes progress on (to the task's status, MCP progress notifications); throttled and kept monotonic there. */
  progress(update: ProgressUpdate): void;
  /**
   * Runs inside the procedure's final write transaction: throws {@link WorkCancelled} when the work was cancelled
   * (the transaction then rolls back); once it returns, a cancel comes too late (the work completes).
   */
  commit(query: Query): Promise<void>;
}

const NEVER = new AbortController().signal;

/** The work being served; undefined outside of a request. */
function currentWork(): Work | undefined {
  return requestContext()?.work;
}

/**
 * Reports how far the current procedure has got. Over MCP a caller that sent a `progressToken` gets
 * `notifications/progress`; a task or REST job shows it in its status. Anywhere else it is a no-op.
 */
export function reportProgress(update: ProgressUpdate): void {
  currentWork()?.progress(update);
}

/**
 * The current procedure's cancellation: aborts when the REST client disconnects, when the MCP caller cancels
 * (`notifications/cancelled`, a dropped stateless call, `tasks/cancel`, `DELETE /api/jobs/{id}`) and when a
 * shutdown's grace runs out. Outside of a request it never aborts.
 */
export function workSignal(): AbortSignal {
  return currentWork()?.signal ?? requestContext()?.request?.signal ?? NEVER;
}

/**
 * The point of no return of a transactional procedure: call it inside its final write transaction, just before it
 * commits. A cancelled call throws here (so the transaction rolls back and nothing is written); after it returns, a
 * cancel is refused and the work completes with what the transaction wrote.
 */
export async function commitPoint(query: Query): Promise<void> {
  const work = currentWork();
  if (work) return work.commit(query);
  const signal = workSignal();
  if (signal.aborted) throw new WorkCancelled(signal.reason);
}
