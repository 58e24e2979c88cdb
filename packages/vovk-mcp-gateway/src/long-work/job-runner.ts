// Runs long work past its request: each job durable in gateway_jobs, beating while it runs, stoppable from anywhere.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { InputRequest } from '@modelcontextprotocol/server';
import { HttpException, HttpStatus } from 'vovk';
import { config } from '../config.js';
import { database, migrateGateway } from '../db/database.js';
import type { SqlDriver, SqlMessaging } from '../db/driver.js';
import { onShutdown } from '../lifecycle.js';
import { runInWork } from '../request-context.js';
import { ServiceUnavailableError } from '../unavailable.js';
import { type Work, WorkCancelled } from './current-work.js';
import { type JobOutcome, type JobRecord, JobStore, type NewJob } from './job-store.js';
import { progressText, throttledProgress } from './progress-throttle.js';

/** How often a running job's instance says it is alive, and after how long without it the job counts as orphaned. */
const HEARTBEAT_MS = 2000;
const STALE_AFTER_MS = 10_000;
/** How often every instance looks for orphaned jobs (so one is failed within STALE_AFTER_MS + SWEEP_MS ≈ 12 s). */
const SWEEP_MS = 2000;
/** PostgreSQL channel of job changes (payload: the job id), so that every instance hears every change. */
const JOB_CHANNEL = 'job_changes';

/** How one run of a job ended: an outcome, or answers it needs (it then runs again from the start with them). */
export type RunEnd =
  | { outcome: JobOutcome; failed?: boolean }
  | { inputRequests: Record<string, InputRequest>; answers: Record<string, unknown> };

/** Runs a job's work once, with `work` (progress, cancellation, commit point) in its context. */
export type RunJob = (job: JobRecord, work: Work) => Promise<RunEnd>;

/** The name of the error `start` refuses a caller's job more with (made an HttpException by {@link startJob}). */
const TOO_MANY_JOBS = 'TooManyJobs';

/** What a running job's `statusMessage` says when the gateway stops it. */
const SHUTDOWN_MESSAGE = 'The gateway instance shut down before the work finished: nothing it was about to commit was kept';
const CANCELLED_MESSAGE = 'Cancelled by the caller';

type LocalJob = { controller: AbortController; done: Promise<void> };

export class JobRunner {
  /** This process, as the table gateway_jobs names the instance running a job. */
  readonly instance = randomUUID();
  private readonly jobs: JobStore;
  private readonly local = new Map<string, LocalJob>();
  private readonly changes = new EventEmitter();
  private heartbeat?: NodeJS.Timeout;
  private sweeper?: NodeJS.Timeout;
  private draining = false;

  private readonly messaging?: SqlMessaging;

  constructor(
    private readonly options: { resultTtlMs: number; maxPerCaller: number; maxPerInstance: number; graceMs: number },
    private readonly driver: SqlDriver = database(),
  ) {
    this.jobs = new JobStore(driver);
    this.messaging = driver.messaging;
    this.changes.setMaxListeners(0);
    this.messaging?.listen(JOB_CHANNEL, { message: (id) => this.heard(id) });
    onShutdown(() => this.drain());
  }

  /** Starts sweeping for orphaned and expired jobs (at once, then every few seconds); the server calls it at start. */
  startSweeping(): void {
    if (this.sweeper) return;
    const sweep = () =>
      this.jobs
        .sweep(STALE_AFTER_MS)
        .then((failed) => failed.forEach((job) => this.announce(job.id)))
        .catch((error: unknown) => console.error('[gateway] Sweeping jobs failed:', (error as Error).message));
    void sweep();
    this.sweeper = setInterval(sweep, SWEEP_MS).unref();
  }

  /**
   * Creates the job durably (a `get` from any instance finds it once this resolves) and runs it in the background.
   * Refused with 429 when `owner` has too many jobs, 503 when this instance runs too many.
   */
  async start(job: Omit<NewJob, 'id' | 'instance' | 'ttlMs'>, run: RunJob): Promise<JobRecord> {
    await migrateGateway(this.driver);
    this.checkInstanceLimit();
    if ((await this.jobs.countActive(job.owner)) >= this.options.maxPerCaller) {
      const message = `Too many jobs: at most ${this.options.maxPerCaller} may run or wait for input at once per caller (JOB_MAX_PER_CALLER); wait for one to end or cancel one`;
      throw Object.assign(new Error(message), { name: TOO_MANY_JOBS });
    }
    const created = await this.jobs.create({ ...job, id: randomUUID(), instance: this.instance, ttlMs: this.options.resultTtlMs });
    this.launch(created, run);
    return created;
  }

  /** The job of `owner` with this id; undefined when there is none (or it is another caller's, or expired). */
  get(id: string, owner: string): Promise<JobRecord | undefined> {
    return this.jobs.get(id, owner);
  }

  /** The newest jobs of `owner` started through `door`. */
  list(owner: string, door: JobRecord['door'], limit = 100): Promise<JobRecord[]> {
    return this.jobs.list(owner, door, limit);
  }

  /**
   * Gives a job waiting for input the caller's answers and runs it again with them (on this instance). Undefined when
   * `owner` has no job with this id waiting for input.
   */
  async resume(id: string, owner: string, answers: Record<string, unknown>, run: RunJob): Promise<JobRecord | undefined> {
    this.checkInstanceLimit();
    const job = await this.jobs.resume(id, owner, answers, this.instance);
    if (!job) return undefined;
    this.announce(id);
    this.launch(job, run);
    return job;
  }

  /** Keeps part of the answers a job waits for (it goes on waiting for the rest, `inputRequests`). */
  async answerPartly(id: string, owner: string, inputRequests: Record<string, InputRequest>, answers: Record<string, unknown>) {
    const job = await this.jobs.answerInput(id, owner, inputRequests, answers);
    if (job) this.announce(id);
    return job;
  }

  /** Cancels a job of `owner` (see `JobStore.cancel`); its work, wherever it runs, sees its signal abort. */
  async cancel(id: string, owner: string) {
    const attempt = await this.jobs.cancel(id, owner, CANCELLED_MESSAGE);
    if (attempt?.cancelled) {
      this.local.get(id)?.controller.abort(new WorkCancelled(CANCELLED_MESSAGE));
      this.announce(id);
    }
    return attempt;
  }

  /** Calls `listener` with the id of every job that changed (here or, over PostgreSQL, on any instance). */
  onChange(listener: (id: string) => void): () => void {
    this.changes.on('change', listener);
    return () => this.changes.off('change', listener);
  }

  private checkInstanceLimit(): void {
    if (this.draining) throw new ServiceUnavailableError('This gateway instance is shutting down: start the job again');
    if (this.local.size >= this.options.maxPerInstance) {
      throw new ServiceUnavailableError(
        `This gateway instance runs ${this.options.maxPerInstance} jobs already (JOB_MAX_PER_INSTANCE): try again shortly`,
      );
    }
  }

  private launch(job: JobRecord, run: RunJob): void {
    const controller = new AbortController();
    const progress = throttledProgress((update) => {
      void this.jobs
        .progress(job.id, update, progressText(update))
        .then((running) => running && this.announce(job.id))
        .catch((error: unknown) => console.error(`[gateway] Recording progress of job ${job.id} failed:`, (error as Error).message));
    });
    const work: Work = {
      signal: controller.signal,
      progress: (update) => progress.report(update),
      commit: async (query) => {
        if (controller.signal.aborted || !(await this.jobs.claimCommit(query, job.id))) {
          throw new WorkCancelled(controller.signal.reason instanceof Error ? controller.signal.reason.message : CANCELLED_MESSAGE);
        }
      },
    };
    const done = (async () => {
      let end: RunEnd;
      try {
        end = await runInWork(work, () => run(job, work));
      } catch (error) {
        end = { outcome: { error: { message: (error as Error).message ?? String(error) } }, failed: true };
      }
      progress.flush();
      await this.settle(job, end, controller.signal);
    })()
      .catch((error: unknown) => console.error(`[gateway] Settling job ${job.id} failed:`, (error as Error).message))
      .finally(() => {
        this.local.delete(job.id);
        if (!this.local.size) this.stopHeartbeat();
      });
    this.local.set(job.id, { controller, done });
    this.heartbeat ??= setInterval(() => void this.beat(), HEARTBEAT_MS).unref();
  }

  /** Writes how a run ended, unless the job already ended (cancelled meanwhile: that stands). */
  private async settle(job: JobRecord, end: RunEnd, signal: AbortSignal): Promise<void> {
    let ended: JobRecord | undefined;
    if ('inputRequests' in end) ended = await this.jobs.awaitInput(job.id, end.inputRequests, end.answers);
    else if (signal.aborted && this.draining) ended = await this.jobs.finish(job.id, 'failed', { error: { message: SHUTDOWN_MESSAGE } }, SHUTDOWN_MESSAGE);
    else if (signal.aborted) ended = await this.jobs.finish(job.id, 'cancelled', undefined, CANCELLED_MESSAGE);
    else if (end.failed) ended = await this.jobs.finish(job.id, 'failed', end.outcome, statusLineOf(end.outcome));
    else ended = await this.jobs.finish(job.id, 'completed', end.outcome, statusLineOf(end.outcome));
    if (ended) this.announce(job.id);
  }

  private async beat(): Promise<void> {
    try {
      const ended = await this.jobs.heartbeat(this.instance, [...this.local.keys()]);
      for (const id of ended) this.local.get(id)?.controller.abort(new WorkCancelled(CANCELLED_MESSAGE));
    } catch (error) {
      console.error('[gateway] The jobs heartbeat failed:', (error as Error).message);
    }
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Tells this instance's listeners, and over PostgreSQL every other instance, that job `id` changed. */
  private announce(id: string): void {
    this.changes.emit('change', id);
    this.messaging?.notify(JOB_CHANNEL, id).catch(() => {});
  }

  /** Another instance changed job `id`: listeners here hear it; a job running here that was cancelled stops. */
  private heard(id: string): void {
    this.changes.emit('change', id);
    const running = this.local.get(id);
    if (running) void this.beat();
  }

  /** On shutdown: running jobs get the grace to finish, then their work is aborted and they end failed, saying why. */
  private async drain(): Promise<void> {
    this.draining = true;
    clearInterval(this.sweeper);
    const running = [...this.local.values()];
    if (!running.length) return;
    const all = Promise.all(running.map((job) => job.done));
    const graceLeft = Math.max(0, this.options.graceMs - 500);
    const finished = await Promise.race([all.then(() => true), delay(graceLeft).then(() => false)]);
    if (finished) return;
    for (const job of this.local.values()) job.controller.abort(new WorkCancelled(SHUTDOWN_MESSAGE));
    await Promise.race([all, delay(250)]);
    for (const id of this.local.keys()) {
      await this.jobs.finish(id, 'failed', { error: { message: SHUTDOWN_MESSAGE } }, SHUTDOWN_MESSAGE).catch(() => undefined);
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** A status line for a finished job: its error's message, if it has one. */
function statusLineOf(outcome: JobOutcome): string | undefined {
  return 'error' in outcome ? outcome.error.message : undefined;
}

const runnerKey = Symbol.for('vovk-gateway.job-runner');
type GlobalWithRunner = typeof globalThis & { [runnerKey]?: JobRunner };

/**
 * Starts a job on the process's runner (see `JobRunner.start`). Its refusal of one job too many becomes a 429
 * HttpException here, in the caller's bundle: the runner is shared by every bundle, an HttpException is recognized
 * only by the bundle whose vovk made it.
 */
export async function startJob(job: Omit<NewJob, 'id' | 'instance' | 'ttlMs'>, run: RunJob): Promise<JobRecord> {
  try {
    return await jobRunner().start(job, run);
  } catch (error) {
    if ((error as Error).name === TOO_MANY_JOBS) throw new HttpException(429 as HttpStatus, (error as Error).message);
    throw error;
  }
}

/** The process-wide job runner (shared by every route bundle of the server), configured from the environment. */
export function jobRunner(): JobRunner {
  const scope = globalThis as GlobalWithRunner;
  const { jobs, shutdownGraceMs } = config();
  scope[runnerKey] ??= new JobRunner({ ...jobs, graceMs: shutdownGraceMs });
  return scope[runnerKey];
}

