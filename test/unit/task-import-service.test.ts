// TaskService.importTasks on both backends: tasks land in row order with their creator, or — on any error or cancel — none.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { configureGateway } from '@gateway/config';
import { requestContext, runInRequestContext } from '@gateway/request-context';
import { type Work, WorkCancelled } from '@gateway/long-work/current-work';
import { store } from '@/lib/store';
import TaskService from '@/modules/task/task-service';
import { type Backend, createTestDatabase, type TestDatabase } from '../support/databases';

/** Forgets this process's configuration and database, so the next use opens them from the settings as a new server would. */
async function forgetProcessState(): Promise<void> {
  const scope = globalThis as Record<symbol, { close?: () => Promise<void> } | undefined>;
  await scope[Symbol.for('vovk-gateway.database')]?.close?.();
  delete scope[Symbol.for('vovk-gateway.database')];
  delete scope[Symbol.for('vovk-gateway.config')];
}

/** Runs the import as work with `signal`, whose commit point is `commit` (the task runner's part), in a request context. */
function importAsWork(
  source: Parameters<typeof TaskService.importTasks>[0],
  { signal = new AbortController().signal, commit = async () => undefined }: Partial<Pick<Work, 'signal' | 'commit'>> = {},
) {
  return runInRequestContext('rest', () => {
    requestContext()!.work = { signal, commit, progress: () => undefined };
    return TaskService.importTasks(source, 'importer');
  });
}

describe.each<Backend>(['sqlite', 'postgres'])('on %s', (backend) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    await forgetProcessState();
    configureGateway(database.options);
    expect(store().driver.constructor.name).toBe(backend === 'sqlite' ? 'SqliteDriver' : 'PostgresDriver');
  });

  afterAll(async () => {
    await forgetProcessState();
    await database.drop();
  });

  beforeEach(async () => {
    for (const task of await store().listTasks()) await store().deleteTask(task.id);
  });

  test('a CSV import adds every row at the bottom of its column, in row order, created by the caller', async () => {
    await TaskService.createTask({ title: 'Already there' });
    const csv = 'title,status,assigneeId\nOne,,\nTwo,done,3\nThree,,1\n';
    const result = await TaskService.importTasks({ csv }, 'importer');
    expect(result.imported).toBe(3);
    const byId = new Map((await store().listTasks()).map((task) => [task.id, task]));
    expect(result.ids.map((id) => byId.get(id))).toMatchObject([
      { title: 'One', status: 'todo', position: 1, assigneeId: null, createdBy: 'importer' },
      { title: 'Two', status: 'done', position: 0, assigneeId: 3, createdBy: 'importer' },
      { title: 'Three', status: 'todo', position: 2, assigneeId: 1, createdBy: 'importer' },
    ]);
  });

  test('bad rows (an unknown assignee among them) → 422 with errors, and nothing is imported', async () => {
    const before = await store().listTasks();
    const rows = [{ title: 'Fine' }, { title: 'Assigned to nobody', assigneeId: 99 }, { title: '' }];
    await expect(TaskService.importTasks({ rows }, null)).rejects.toMatchObject({
      statusCode: 422,
      details: { errors: [{ row: 2, reason: 'assigneeId: user 99 does not exist' }, { row: 3, reason: expect.any(String) }] },
    });
    expect(await store().listTasks()).toEqual(before);
  });

  test('cancelled while reading, or at the commit point: WorkCancelled, and nothing is imported', async () => {
    const before = await store().listTasks();
    const rows = Array.from({ length: 3000 }, (_, index) => ({ title: `Row ${index}` }));
    await expect(importAsWork({ rows }, { signal: AbortSignal.abort('stop') })).rejects.toBeInstanceOf(WorkCancelled);
    let committing = 0;
    const cancelAtCommit = async () => {
      committing++;
      throw new WorkCancelled('too late to keep');
    };
    await expect(importAsWork({ rows }, { commit: cancelAtCommit })).rejects.toBeInstanceOf(WorkCancelled);
    expect(committing).toBe(1);
    expect(await store().listTasks()).toEqual(before);
    expect((await importAsWork({ rows })).imported).toBe(3000);
  });
});
