// REST jobs (RFC 7240 `Prefer: respond-async`): 202 + Location, then GET / DELETE /api/jobs/{id}, kept in gateway_jobs.
import 'server-only';
import { HttpException, HttpStatus } from 'vovk';
import { currentCaller, principalOf } from '../request-context.js';
import { toPublicError } from '../tools/public-error.js';
import { jobRunner, type RunEnd, startJob } from './job-runner.js';
import { isFinished, type JobError, type JobRecord } from './job-store.js';

/** Where a job is read and cancelled. */
export const JOBS_PATH = '/api/jobs';

/** A job as `GET /api/jobs/{id}` answers it. */
interface RestJob {
  id: string;
  status: JobRecord['status'];
  progress: { done: number; total?: number; message?: string };
  statusMessage?: string;
  /** The procedure's JSON, once completed. */
  result?: unknown;
  /** `{ statusCode, message, … }`, once failed (the body the synchronous call would have answered with). */
  error?: JobError & { statusCode: number };
  createdAt: string;
  updatedAt: string;
}

/** Whether the request asks to be answered before the work is done (`Prefer: respond-async`, RFC 7240). */
export function prefersAsync(req: Request): boolean {
  const prefer = req.headers.get('prefer');
  return !!prefer && prefer.split(',').some((preference) => preference.split(';')[0].trim().toLowerCase() === 'respond-async');
}

function restJobOf(job: JobRecord): RestJob {
  const outcome = job.outcome;
  return {
    id: job.id,
    status: job.status,
    progress: job.progress ?? { done: 0 },
    ...(job.statusMessage ? { statusMessage: job.statusMessage } : {}),
    ...(outcome && 'result' in outcome ? { result: outcome.result } : {}),
    ...(outcome && 'error' in outcome ? { error: { ...outcome.error, statusCode: Number(outcome.error.statusCode ?? 500) } } : {}),
    createdAt: new Date(job.createdAt).toISOString(),
    updatedAt: new Date(job.updatedAt).toISOString(),
  };
}

/** The body of an error as the REST door answers it: Vovk's `{ statusCode, message, … }`, masked in production. */
function restErrorOf(error: unknown): JobError {
  if (error instanceof HttpException) {
    const { isError: _isError, ...body } = error.toJSON() as Record<string, unknown> & { message: string };
    const extra = Object.fromEntries(Object.entries(error).filter(([key]) => !['statusCode', 'message', 'cause'].includes(key)));
    return { ...body, ...extra };
  }
  const { statusCode } = error as { statusCode?: unknown };
  const { message, errorId } = toPublicError(error);
  return { statusCode: typeof statusCode === 'number' && !errorId ? statusCode : 500, message, ...(errorId ? { cause: { errorId } } : {}) };
}

/** How a REST procedure's run ended, as a job outcome: its JSON, or the error body it would have answered. */
async function restEndOf(run: () => Promise<unknown>): Promise<RunEnd> {
  try {
    const value = await run();
    if (!(value instanceof Response)) return { outcome: { result: value ?? null } };
    const text = await value.text();
    const isJson = /\bjson\b/i.test(value.headers.get('content-type') ?? '');
    const body: unknown = isJson && text ? JSON.parse(text) : text;
    if (value.ok) return { outcome: { result: body } };
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : { message: String(body) };
    return { outcome: { error: { statusCode: value.status, message: `HTTP ${value.status}`, ...fields } }, failed: true };
  } catch (error) {
    if ((error as Error).name === 'WorkCancelled') throw error; // (made by the runner's bundle: no instanceof)
    return { outcome: { error: restErrorOf(error) }, failed: true };
  }
}

/**
 * Starts `run` (the procedure) as a REST job of the caller and answers `202 Accepted` with the job and its
 * `Location`. The work goes on after the answer; `GET /api/jobs/{id}` follows it.
 */
export async function startRestJob(req: Request, run: () => Promise<unknown>): Promise<Response> {
  const { pathname } = new URL(req.url);
  const job = await startJob(
    { owner: principalOf(currentCaller()), door: 'rest', tool: `${req.method} ${pathname}`, input: null, answers: {} },
    () => restEndOf(run),
  );
  const location = `${JOBS_PATH}/${job.id}`;
  return Response.json(restJobOf(job), {
    status: 202,
    headers: { location, 'preference-applied': 'respond-async', 'retry-after': '1' },
  });
}

const notFound = (id: string) => new HttpException(HttpStatus.NOT_FOUND, `Job ${id} not found`);

/** The caller's job; 404 when there is none with this id (or it is another caller's, or expired). */
export async function getRestJob(id: string): Promise<RestJob> {
  const job = await jobRunner().get(id, principalOf(currentCaller()));
  if (!job || job.door !== 'rest') throw notFound(id);
  return restJobOf(job);
}

/**
 * Cancels the caller's running job: 202 with the job, now `cancelled`. A job that already ended answers 409 naming
 * its status; an unknown or foreign one 404.
 */
export async function cancelRestJob(id: string): Promise<Response> {
  const owner = principalOf(currentCaller());
  const found = await jobRunner().get(id, owner);
  if (!found || found.door !== 'rest') throw notFound(id);
  const attempt = await jobRunner().cancel(id, owner);
  if (!attempt) throw notFound(id);
  if (!attempt.cancelled) {
    const status = isFinished(attempt.job.status) ? attempt.job.status : 'completed';
    throw new HttpException(HttpStatus.CONFLICT, `Job ${id} has already ended (${status}): there is nothing to cancel`);
  }
  return Response.json(restJobOf(attempt.job), { status: 202 });
}
