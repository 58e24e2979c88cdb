// Jobs on both backends: bound to their caller, limits, progress, cancel against the commit point, input, orphans, TTL.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Query } from '@gateway/db/driver';
import { commitPoint, type Work, workSignal } from '@gateway/long-work/current-work';
import { JobRunner, type RunJob } from '@gateway/long-work/job-runner';
import { JobStore } from '@gateway/long-work/job-store';
import type { Store } from '@/lib/store';
import { type Backend, createTestDatabase, type TestDatabase } from '../support/databases';
import { openMigratedStore } from '../support/stores';

/** A task written straight into the table, inside the caller's transaction. */
const addTask = (query: Query, title: string) => {
  const at = new Date().toISOString();
  return query("INSERT INTO tasks (title, description, status, position, created_at, updated_at) VALUES (?, '', 'todo', 90, ?, ?)", [title, at, at]);
};

const limits = { resultTtlMs: 60_000, maxPerCaller: 2, maxPerInstance: 3, graceMs: 1000 };
const newJob = (owner: string) => ({ owner, door: 'rest' as const, tool: 'POST /api/fixture', input: null, answers: {} });

/** Work that waits for `release` (or its cancel), then ends with `{ done: true }`. */
function heldWork() {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const run: RunJob = async () => {
    await Promise.race([released, new Promise((_, reject) => workSignal().addEventListener('abort', () => reject(workSignal().reason)))]);
    return { outcome: { result: { done: true } } };
  };
  return { run, release };
}

describe.each<Backend>(['sqlite', 'postgres'])('jobs on %s', (backend) => {
  let database: TestDatabase;
  let store: Store;
  let runner: JobRunner;

  beforeEach(async () => {
    database = await createTestDatabase(backend);
    store = await openMigratedStore(database);
    runner = new JobRunner(limits, store.driver);
  });

  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  /** Waits until the job reaches one of `statuses`. */
  const settled = async (id: string, owner: string, statuses = ['completed', 'failed', 'cancelled']) => {
    for (let tries = 0; tries < 200; tries++) {
      const job = await runner.get(id, owner);
      if (job && statuses.includes(job.status)) return job;
      await sleep(20);
    }
    throw new Error(`job ${id} did not settle`);
  };

  test('a job is durable at once, runs to its result, and another caller reads it as missing', async () => {
    const { run, release } = heldWork();
    const job = await runner.start(newJob('alice'), run);
    expect(await runner.get(job.id, 'alice')).toMatchObject({ status: 'working', committed: false });
    expect(await runner.get(job.id, 'bob')).toBeUndefined();
    release();
    expect(await settled(job.id, 'alice')).toMatchObject({ status: 'completed', outcome: { result: { done: true } } });
    expect(await runner.cancel(job.id, 'bob')).toBeUndefined();
  });

  test('JOB_MAX_PER_CALLER: one more is refused with 429 until one ends; JOB_MAX_PER_INSTANCE with 503', async () => {
    const held = [heldWork(), heldWork(), heldWork()];
    const [first] = await Promise.all([runner.start(newJob('alice'), held[0].run), runner.start(newJob('alice'), held[1].run)]);
    await expect(runner.start(newJob('alice'), held[2].run)).rejects.toMatchObject({ name: 'TooManyJobs', message: expect.stringContaining('JOB_MAX_PER_CALLER') });
    await runner.start(newJob('bob'), held[2].run);
    await expect(runner.start(newJob('carol'), heldWork().run)).rejects.toMatchObject({ statusCode: 503 });
    held[0].release();
    await settled(first.id, 'alice');
    const fourth = heldWork();
    await runner.start(newJob('alice'), fourth.run);
    for (const each of [...held, fourth]) each.release();
  });

  test('progress reaches the job throttled and monotonic; a cancel stops the work and the job ends cancelled', async () => {
    let sawAbort = false;
    const run: RunJob = async (_job, work: Work) => {
      for (let done = 1; done <= 1000; done++) {
        work.progress({ done, total: 1000, message: `${done} of 1000` });
        if (done === 3) work.progress({ done: 1, total: 1000 }); // going back is dropped
        await sleep(5);
        if (work.signal.aborted) {
          sawAbort = true;
          throw work.signal.reason;
        }
      }
      return { outcome: { result: 'finished' } };
    };
    const job = await runner.start(newJob('alice'), run);
    await expect.poll(async () => (await runner.get(job.id, 'alice'))?.progress?.done ?? 0, { timeout: 5000 }).toBeGreaterThan(3);
    const attempt = await runner.cancel(job.id, 'alice');
    expect(attempt).toMatchObject({ cancelled: true, job: { status: 'cancelled' } });
    await expect.poll(() => sawAbort, { timeout: 5000 }).toBe(true);
    expect((await settled(job.id, 'alice')).status).toBe('cancelled');
    expect(await runner.cancel(job.id, 'alice')).toMatchObject({ cancelled: false, job: { status: 'cancelled' } });
  });

  test('a cancel and the commit point are settled in one transaction: cancelled wrote nothing, past it a cancel is too late', async () => {
    let gate = () => {};
    const atCommit = new Promise<void>((resolve) => (gate = resolve));
    const writing: RunJob = async () => {
      await atCommit;
      const task = await store.driver.write(async (query) => {
        await addTask(query, 'From a job');
        await commitPoint(query);
        return 'written';
      });
      return { outcome: { result: task } };
    };
    const cancelledFirst = await runner.start(newJob('alice'), writing);
    await runner.cancel(cancelledFirst.id, 'alice');
    gate();
    expect((await settled(cancelledFirst.id, 'alice')).status).toBe('cancelled');
    expect((await store.listTasks()).some((task) => task.title === 'From a job')).toBe(false);

    let reachedCommit = () => {};
    const committed = new Promise<void>((resolve) => (reachedCommit = resolve));
    let finish = () => {};
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    const slowAfterCommit: RunJob = async () => {
      await store.driver.write(async (query) => {
        await addTask(query, 'Kept');
        await commitPoint(query);
      });
      reachedCommit();
      await finishing;
      return { outcome: { result: 'kept' } };
    };
    const late = await runner.start(newJob('alice'), slowAfterCommit);
    await committed;
    expect(await runner.cancel(late.id, 'alice')).toMatchObject({ cancelled: false, job: { status: 'working', committed: true } });
    finish();
    expect((await settled(late.id, 'alice')).status).toBe('completed');
    expect((await store.listTasks()).some((task) => task.title === 'Kept')).toBe(true);
  });

  test('input: a job waits with its requests, partial answers keep it waiting, full ones run it again with them', async () => {
    const seen: Record<string, unknown>[] = [];
    const run: RunJob = async (job) => {
      seen.push(job.answers);
      if (!('a' in job.answers && 'b' in job.answers)) {
        const ask = { method: 'elicitation/create', params: { message: '?', requestedSchema: { type: 'object', properties: {} } } };
        return { inputRequests: { a: ask, b: ask } as never, answers: job.answers };
      }
      return { outcome: { result: job.answers } };
    };
    const job = await runner.start(newJob('alice'), run);
    const waiting = await settled(job.id, 'alice', ['input_required']);
    expect(Object.keys(waiting.inputRequests ?? {})).toEqual(['a', 'b']);
    expect(await runner.resume(job.id, 'bob', { a: 1, b: 2 }, run)).toBeUndefined();
    await runner.answerPartly(job.id, 'alice', { b: waiting.inputRequests!.b }, { a: 1 });
    expect(await runner.get(job.id, 'alice')).toMatchObject({ status: 'input_required', answers: { a: 1 } });
    await runner.resume(job.id, 'alice', { a: 1, b: 2 }, run);
    expect(await settled(job.id, 'alice')).toMatchObject({ status: 'completed', outcome: { result: { a: 1, b: 2 } } });
    expect(seen).toEqual([{}, { a: 1, b: 2 }]);
  });

  test('an orphan (its instance stopped beating) turns failed saying why; ended jobs past their TTL are removed', async () => {
    const jobs = new JobStore(store.driver);
    const orphan = await jobs.create({ ...newJob('alice'), id: 'orphan', instance: 'gone', ttlMs: 1000 }, Date.now() - 60_000);
    const failed = await jobs.sweep(10_000);
    expect(failed.map((job) => job.id)).toEqual([orphan.id]);
    expect(await jobs.get('orphan', 'alice')).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('stopped unexpectedly') });
    await jobs.sweep(10_000, Date.now() + 5000);
    expect(await jobs.get('orphan', 'alice', Date.now())).toBeUndefined();
    expect(await jobs.list('alice', 'rest', 10)).toEqual([]);
  });
});
