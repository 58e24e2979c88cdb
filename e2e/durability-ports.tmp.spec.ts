// Durability under kill -9: hundreds of concurrent creates and moves (REST and MCP), the server killed mid-way, three
// rounds per backend; after each restart every acknowledged write is there, positions are 0…n-1, SQLite is intact.
import Database from 'better-sqlite3';
import { expect, test } from '@playwright/test';
import { type Backend, createTestDatabase } from '../test/support/databases';
import { mcpHeaders, postMcp, toolCall } from './support/json-rpc';
import { random } from './support/random';
import { attempt, expectContiguousPositions, writeFigures } from './support/reliability';
import { e2ePort, type RunningServer, startServer } from './support/server';

const ROUNDS = 3;
const WORKERS = 16;
const STATUSES = ['todo', 'in_progress', 'done'] as const;
type Status = (typeof STATUSES)[number];
type Task = { id: number; title: string; status: Status; position: number };

/**
 * What the clients know: each task's status as its last acknowledged write left it, and the statuses of writes sent
 * after that one without an answer (they may or may not have happened). Creates without an answer are kept by title.
 */
class Ledger {
  readonly tasks = new Map<number, { title: string; confirmed: Status; unanswered: Set<Status> }>();
  readonly unansweredCreates = new Set<string>();
  /** The tasks the database starts with (the demo tasks). */
  readonly seeded = new Set<number>();
  acknowledged = 0;
  unanswered = 0;
  refused: string[] = [];

  created(task: Task): void {
    this.tasks.set(task.id, { title: task.title, confirmed: task.status, unanswered: new Set() });
    this.acknowledged++;
  }

  moved(task: Task): void {
    const entry = this.tasks.get(task.id)!;
    entry.confirmed = task.status;
    entry.unanswered.clear();
    this.acknowledged++;
  }
}

/** One write through REST or MCP: the task on success, 'lost' when no answer came (the kill), else a refusal. */
async function write(
  base: string,
  door: 'rest' | 'mcp',
  action: { create: { title: string; status: Status } } | { move: { id: number; status: Status; position?: number } },
): Promise<Task | 'lost' | string> {
  if (door === 'rest') {
    const [path, method, body] =
      'create' in action
        ? ['/api/tasks', 'POST', action.create]
        : [`/api/tasks/${action.move.id}/move`, 'PUT', { status: action.move.status, position: action.move.position }];
    const outcome = await attempt(`${base}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (outcome.error) return 'lost';
    const text = outcome.text ?? '';
    return outcome.status === 200 ? (JSON.parse(text) as Task) : `REST ${outcome.status} ${text.slice(0, 120)}`;
  }
  const call =
    'create' in action
      ? toolCall(1, 'TaskController_createTask', { body: action.create })
      : toolCall(1, 'TaskController_moveTask', {
          params: { id: action.move.id },
          body: { status: action.move.status, position: action.move.position },
        });
  try {
    const answer = await postMcp(base, call, mcpHeaders);
    const result = answer.message?.result as { isError?: boolean; structuredContent?: Task } | undefined;
    if (answer.status === 200 && result && !result.isError) return result.structuredContent!;
    return answer.status === 0 || !answer.text ? 'lost' : `MCP ${answer.status} ${answer.text.slice(0, 120)}`;
  } catch {
    return 'lost';
  }
}

/** Workers create tasks and move their own ones until `stop()`; half of them through REST, half through MCP. */
function runLoad(base: string, ledger: Ledger, round: number) {
  let stopped = false;
  const workers = Array.from({ length: WORKERS }, async (_, worker) => {
    const next = random(round * 1000 + worker);
    const door = worker % 2 ? 'mcp' : 'rest';
    const own: number[] = [];
    for (let n = 0; !stopped; n++) {
      const status = STATUSES[Math.floor(next() * 3)];
      if (own.length === 0 || next() < 0.5) {
        const title = `r${round}-w${worker}-n${n}`;
        const result = await write(base, door, { create: { title, status } });
        if (typeof result === 'object') {
          ledger.created(result);
          own.push(result.id);
        } else if (result === 'lost') {
          ledger.unansweredCreates.add(title);
          ledger.unanswered++;
        } else ledger.refused.push(result);
      } else {
        const id = own[Math.floor(next() * own.length)];
        const position = next() < 0.5 ? Math.floor(next() * 6) : undefined;
        const result = await write(base, door, { move: { id, status, position } });
        if (typeof result === 'object') ledger.moved(result);
        else if (result === 'lost') {
          ledger.tasks.get(id)!.unanswered.add(status);
          ledger.unanswered++;
        } else ledger.refused.push(result);
      }
    }
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(workers);
    },
  };
}

/** Checks the restarted server's tasks against the ledger; returns how many acknowledged tasks were found. */
async function verify(server: RunningServer, ledger: Ledger): Promise<{ present: number; missing: number }> {
  const tasks = (await (await fetch(`${server.baseURL}/api/tasks`)).json()) as Task[];
  const byId = new Map(tasks.map((task) => [task.id, task]));
  let missing = 0;
  for (const [id, expected] of ledger.tasks) {
    const actual = byId.get(id);
    if (!actual) missing++;
    expect(actual?.title, `acknowledged task ${id} (${expected.title})`).toBe(expected.title);
    expect([expected.confirmed, ...expected.unanswered], `status of task ${id}`).toContain(actual?.status);
  }
  const unknown = tasks.filter(
    (task) => !ledger.tasks.has(task.id) && !ledger.unansweredCreates.has(task.title) && !ledger.seeded.has(task.id),
  );
  expect(unknown, 'tasks nobody created').toEqual([]);
  expectContiguousPositions(tasks);
  return { present: ledger.tasks.size - missing, missing };
}

function sqliteIntegrity(file: string): string {
  const db = new Database(file);
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

const ports: Record<Backend, number> = { sqlite: e2ePort + 26, postgres: e2ePort + 27 };

for (const backend of ['sqlite', 'postgres'] as const) {
  test(`kill -9 during concurrent REST and MCP creates and moves on ${backend}, ${ROUNDS} rounds: no acknowledged write lost`, async () => {
    test.setTimeout(120_000);
    const database = await createTestDatabase(backend);
    const ledger = new Ledger();
    const rounds: Array<Record<string, unknown>> = [];
    const next = random(backend.length);
    let server = await startServer(ports[backend], database.env, `test-results/durability-${backend}-0.log`);
    try {
      for (const task of (await (await fetch(`${server.baseURL}/api/tasks`)).json()) as Task[]) ledger.seeded.add(task.id);
      for (let round = 1; round <= ROUNDS; round++) {
        const acknowledgedBefore = ledger.acknowledged;
        const killAfter = 150 + Math.floor(next() * 100);
        const load = runLoad(server.baseURL, ledger, round);
        await expect.poll(() => ledger.acknowledged - acknowledgedBefore, { timeout: 60_000, intervals: [5] }).toBeGreaterThanOrEqual(killAfter);
        process.kill(server.pid, 'SIGKILL');
        await load.stop();
        expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
        expect(ledger.refused, 'writes refused before the kill').toEqual([]);

        server = await startServer(ports[backend], database.env, `test-results/durability-${backend}-${round}.log`);
        const found = await verify(server, ledger);
        const integrity = backend === 'sqlite' ? sqliteIntegrity(database.options.databaseFile) : undefined;
        if (backend === 'sqlite') expect(integrity).toBe('ok');
        rounds.push({ round, acknowledgedThisRound: ledger.acknowledged - acknowledgedBefore, acknowledgedTasks: ledger.tasks.size, ...found, integrity });
      }
      writeFigures(`durability-${backend}`, {
        backend,
        rounds,
        workers: WORKERS,
        acknowledgedWrites: ledger.acknowledged,
        unansweredWrites: ledger.unanswered,
        acknowledgedCreates: ledger.tasks.size,
        acknowledgedMoves: ledger.acknowledged - ledger.tasks.size,
        presentAfterLastRestart: rounds.at(-1)?.present,
      });
    } finally {
      await server.stop();
      await database.drop();
    }
  });
}
