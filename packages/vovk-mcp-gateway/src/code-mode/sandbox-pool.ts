// The sandbox workers of this process: each runs one program at a time on a thread of its own, so that a program that
// loops takes one core and never the event loop that serves everything else; a worker that does not stop is ended.
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FromWorker, LimitName, ProgramOutcome, RunMessage, ToWorker } from './sandbox-protocol.js';

const WORKER_IN_PACKAGE = 'node_modules/vovk-mcp-gateway/dist/code-mode/sandbox-worker.mjs';

/**
 * The worker's program: plain JavaScript outside the app's bundle, in the installed package. Next.js runs the server
 * from the app's folder, so it is looked up from there, in the nearest node_modules that has the package.
 */
function workerFile(): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const file = path.join(dir, WORKER_IN_PACKAGE);
    if (fs.existsSync(file)) return file;
    if (path.dirname(dir) === dir) throw new Error(`Code mode's sandbox worker is not found: no ${WORKER_IN_PACKAGE} above ${process.cwd()}`);
  }
}

/** How long past its deadline (or a stop) a worker may take to answer before it is ended and replaced. */
const GRACE_MS = 1_000;

/** One program to run: its code, the tools it may call, its seed and clock, its limits; `callTool` runs one call. */
export interface Program extends Omit<RunMessage, 'type'> {
  /** Runs `tools.<tool>(args)`: the value's JSON, or it throws the Error the program sees. */
  callTool: (tool: string, argsJson: string) => Promise<string>;
  /** Ends the program (cancelled): it answers `{ ok: false }` with the signal's reason. */
  signal: AbortSignal;
}

interface SandboxWorker {
  worker: Worker;
  /** Set to 1 to stop its program at its next step, even while it computes (sandbox-worker.mjs reads it). */
  stopFlag: Int32Array;
  ready: Promise<void>;
  /** The run it serves now, answered by the worker's messages. */
  onMessage?: (message: FromWorker) => void;
  /** Called when the worker exits while it serves a run. */
  onExit?: () => void;
  /** It exited, or will: it runs no other program. */
  retired?: boolean;
}

function limitOutcome(error: string, limit: LimitName): ProgramOutcome {
  return { ok: false, error, limit, logs: [] };
}

export class SandboxPool {
  readonly #idle: SandboxWorker[] = [];
  #count = 0;
  readonly #waiting: Array<(worker: SandboxWorker | undefined) => void> = [];

  /** At most `size` workers run programs at once; the others wait for one (their wall time runs meanwhile). */
  constructor(private readonly size: number) {}

  /** Runs `program` on a worker of its own; never throws (a failure is an outcome). */
  async run(program: Program): Promise<ProgramOutcome> {
    const worker = await this.#acquire(program);
    if (!worker) {
      return program.signal.aborted ? { ok: false, error: String(program.signal.reason ?? 'cancelled'), logs: [] } : limitOutcome('wall time', 'wall');
    }
    try {
      return await this.#runOn(worker, program);
    } finally {
      this.#release(worker);
    }
  }

  /** Starts the first worker now, so that the first program does not wait for it. */
  warm(): void {
    if (this.#count === 0) this.#release(this.#spawn());
  }

  #spawn(): SandboxWorker {
    this.#count += 1;
    const stopFlag = new Int32Array(new SharedArrayBuffer(4));
    // Constructed through Reflect: a bundler that sees `new Worker(path)` tries to bundle the file, which is found at run time.
    const worker: Worker = Reflect.construct(Worker, [workerFile(), { workerData: { stopFlag: stopFlag.buffer } }]);
    // An idle worker does not keep the process alive (a drain after SIGTERM ends with the requests).
    worker.unref();
    const entry: SandboxWorker = {
      worker,
      stopFlag,
      ready: new Promise((resolve, reject) => {
        worker.once('error', reject);
        worker.once('exit', () => reject(new Error('The sandbox worker stopped while it started')));
        worker.once('message', () => resolve());
      }),
    };
    entry.ready.catch(() => {});
    worker.on('message', (message: FromWorker) => entry.onMessage?.(message));
    worker.on('error', () => {});
    worker.on('exit', () => {
      entry.retired = true;
      this.#count -= 1;
      const index = this.#idle.indexOf(entry);
      if (index >= 0) this.#idle.splice(index, 1);
      entry.onExit?.();
    });
    return entry;
  }

  /** A worker for `program`: an idle one, a new one while fewer than `size` run, else the next one freed. */
  #acquire(program: Program): Promise<SandboxWorker | undefined> {
    const idle = this.#idle.pop();
    if (idle) return Promise.resolve(idle);
    if (this.#count < this.size) return Promise.resolve(this.#spawn());
    return new Promise((resolve) => {
      const cleanup = () => {
        clearTimeout(timer);
        program.signal.removeEventListener('abort', giveUp);
        const index = this.#waiting.indexOf(take);
        if (index >= 0) this.#waiting.splice(index, 1);
      };
      const take = (worker: SandboxWorker | undefined) => {
        cleanup();
        resolve(worker);
      };
      const giveUp = () => take(undefined);
      const timer = setTimeout(giveUp, Math.max(0, program.limits.deadline - Date.now()));
      program.signal.addEventListener('abort', giveUp, { once: true });
      this.#waiting.push(take);
    });
  }

  /** Hands a worker done with its program to the next one waiting, or keeps it idle; a retired one is replaced. */
  #release(worker: SandboxWorker): void {
    worker.onMessage = undefined;
    worker.onExit = undefined;
    if (worker.retired) void worker.worker.terminate();
    const next = this.#waiting.shift();
    if (next) next(worker.retired ? this.#spawn() : worker);
    else if (!worker.retired) this.#idle.push(worker);
  }

  async #runOn(entry: SandboxWorker, program: Program): Promise<ProgramOutcome> {
    try {
      await entry.ready;
    } catch (error) {
      return { ok: false, error: `The sandbox could not start: ${(error as Error).message}`, logs: [] };
    }
    const { worker } = entry;
    return new Promise<ProgramOutcome>((resolve) => {
      let backstop: NodeJS.Timeout | undefined;
      const settle = (outcome: ProgramOutcome) => {
        clearTimeout(deadline);
        clearTimeout(backstop);
        program.signal.removeEventListener('abort', cancel);
        entry.onMessage = undefined;
        entry.onExit = undefined;
        resolve(outcome);
      };
      /** Ends a worker that did not answer in time; the pool starts another when needed. */
      const endWorker = (outcome: ProgramOutcome) => {
        entry.retired = true;
        settle(outcome);
      };
      const stopWith = (reason: string, outcome: ProgramOutcome) => {
        Atomics.store(entry.stopFlag, 0, 1);
        worker.postMessage({ type: 'stop', reason } satisfies ToWorker);
        backstop ??= setTimeout(() => endWorker(outcome), GRACE_MS);
      };
      const cancel = () => stopWith(String(program.signal.reason ?? 'cancelled'), { ok: false, error: 'cancelled', logs: [] });
      const deadline = setTimeout(
        () => (backstop ??= setTimeout(() => endWorker(limitOutcome('wall time', 'wall')), GRACE_MS)),
        Math.max(0, program.limits.deadline - Date.now()),
      );
      entry.onExit = () => settle({ ok: false, error: 'The sandbox stopped unexpectedly', logs: [] });
      entry.onMessage = (message) => {
        if (message.type === 'done') {
          const { type: _type, retire, ...outcome } = message;
          if (retire) entry.retired = true;
          return settle(outcome);
        }
        if (message.type !== 'call') return;
        const { callId } = message;
        program.callTool(message.tool, message.argsJson).then(
          (json) => worker.postMessage({ type: 'callResult', callId, ok: true, json } satisfies ToWorker),
          (error: unknown) =>
            worker.postMessage({ type: 'callResult', callId, ok: false, message: (error as Error)?.message ?? String(error) } satisfies ToWorker),
        );
      };
      if (program.signal.aborted) return cancel();
      program.signal.addEventListener('abort', cancel, { once: true });
      const { callTool: _callTool, signal: _signal, ...run } = program;
      worker.postMessage({ type: 'run', ...run } satisfies RunMessage);
    });
  }
}
