// Unit tests of code mode's sandbox (real worker threads running QuickJS): nothing of the host is reachable, every
// limit ends the program naming itself, a looping program leaves the event loop free, runs are deterministic.
import { describe, expect, test } from 'vitest';
import { type Program, SandboxPool } from '@gateway/code-mode/sandbox-pool';
import type { ProgramOutcome, SandboxLimits } from '@gateway/code-mode/sandbox-protocol';

const pool = new SandboxPool(2);

const LIMITS = { wallMs: 2_000, memoryBytes: 16 * 1024 * 1024, maxCalls: 5, maxResultBytes: 10_000, maxLogBytes: 1_000 };

/** Runs `code` with tools `echo` (answers its arguments), `fail` (throws) and `hang` (never answers). */
function run(code: string, overrides: Partial<Omit<SandboxLimits, 'deadline'>> & { signal?: AbortSignal; seed?: number } = {}): Promise<ProgramOutcome> {
  const { signal = new AbortController().signal, seed = 7, ...limits } = overrides;
  const wallMs = limits.wallMs ?? LIMITS.wallMs;
  const program: Program = {
    code,
    tools: ['echo', 'fail', 'hang'],
    seed,
    now: Date.UTC(2026, 0, 2, 3, 4, 5),
    limits: { ...LIMITS, ...limits, deadline: Date.now() + wallMs },
    callTool: async (tool, argsJson) => {
      if (tool === 'fail') throw new Error('the tool failed');
      if (tool === 'hang') return new Promise(() => {});
      return argsJson;
    },
    signal,
  };
  return pool.run(program);
}

const resultOf = (outcome: ProgramOutcome) => {
  if (!outcome.ok) throw new Error(`the program failed: ${outcome.error}`);
  return JSON.parse(outcome.resultJson) as unknown;
};

describe('the program reaches nothing of the host', () => {
  test('process, require, module, Buffer, fetch, timers and the bridge are absent', async () => {
    const names = ['process', 'require', 'module', 'Buffer', 'fetch', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'WebAssembly', '__call', '__log', '__done', '__start', 'std', 'os'];
    const outcome = await run(`return Object.fromEntries(${JSON.stringify(names)}.map((name) => [name, typeof globalThis[name]]))`);
    expect(resultOf(outcome)).toEqual(Object.fromEntries(names.map((name) => [name, 'undefined'])));
  });

  test('import() of any module fails', async () => {
    for (const specifier of ['fs', 'node:child_process', './sandbox-worker.mjs', 'https://example.com/x.js']) {
      const outcome = await run(`await import(${JSON.stringify(specifier)})`);
      expect(outcome.ok).toBe(false);
    }
  });

  test('Function through any prototype chain is the sandbox’s own: it finds no process either', async () => {
    const chains = [
      `({}).constructor.constructor('return typeof process')()`,
      `tools.echo.constructor('return typeof process')()`,
      `console.log.constructor('return typeof require')()`,
      `(async () => {}).constructor('return typeof process')().then((type) => type)`,
      `Object.getPrototypeOf(tools).constructor.constructor('return typeof globalThis.process')()`,
      `new Error().constructor.constructor('return this')().process === undefined ? 'undefined' : 'found'`,
    ];
    for (const chain of chains) expect(resultOf(await run(`return await (${chain})`))).toBe('undefined');
  });

  test('what a tool returns is plain data made in the sandbox (JSON), never a host object', async () => {
    const outcome = await run(`const value = await tools.echo({ a: [1, 2] }); return [value, value.constructor === Object, value.a.constructor.constructor('return typeof process')()]`);
    expect(resultOf(outcome)).toEqual([{ a: [1, 2] }, true, 'undefined']);
  });
});

describe('limits, each named when passed', () => {
  test('wall time, computing', async () => {
    const outcome = await run('while (true) {}', { wallMs: 300 });
    expect(outcome).toMatchObject({ ok: false, limit: 'wall' });
  });

  test('wall time, waiting for a tool that does not answer', async () => {
    const startedAt = Date.now();
    const outcome = await run('await tools.hang({}); return 1', { wallMs: 300 });
    expect(outcome).toMatchObject({ ok: false, limit: 'wall' });
    expect(Date.now() - startedAt).toBeLessThan(300 + 1_500);
  });

  test('memory', async () => {
    const outcome = await run('const keep = []; while (true) keep.push({ n: Math.random() });', { memoryBytes: 8 * 1024 * 1024 });
    expect(outcome).toMatchObject({ ok: false, limit: 'memory' });
    // The worker it ran on may be replaced: the next program runs all the same.
    expect(resultOf(await run('return 1'))).toBe(1);
  });

  test('memory, in strings (which QuickJS’s own limit does not count)', async () => {
    const startedAt = Date.now();
    const outcome = await run('const keep = []; while (true) keep.push("y".repeat(1000));', { memoryBytes: 8 * 1024 * 1024 });
    expect(outcome).toMatchObject({ ok: false, limit: 'memory' });
    // Stopped near the limit, not when the engine's 2 GiB were full (that took about 8 s).
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(resultOf(await run('return 1'))).toBe(1);
  });

  test('number of tool calls', async () => {
    const outcome = await run('for (let i = 0; i < 10; i++) await tools.echo({ i }); return "all"');
    expect(outcome).toMatchObject({ ok: false, limit: 'calls' });
  });

  test('size of the result and of the logs', async () => {
    expect(await run('return "x".repeat(20000)')).toMatchObject({ ok: false, limit: 'result' });
    expect(await run('for (let i = 0; i < 1000; i++) console.log("line", i); return 1')).toMatchObject({ ok: false, limit: 'logs' });
  });

  test('a program that catches the limit’s error still ends', async () => {
    const outcome = await run('for (;;) { try { while (true) {} } catch {} }', { wallMs: 300 });
    expect(outcome).toMatchObject({ ok: false, limit: 'wall' });
  });

  test('while a program loops, the event loop of the gateway stays free', async () => {
    const lags: number[] = [];
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      lags.push(now - last - 20);
      last = now;
    }, 20);
    const outcome = await run('while (true) {}', { wallMs: 1_500 });
    clearInterval(ticker);
    expect(outcome).toMatchObject({ ok: false, limit: 'wall' });
    // A loop on this thread would hold every tick for the whole 1.5 s.
    expect(lags.length).toBeGreaterThan(20);
    expect(Math.max(...lags)).toBeLessThan(750);
  });
});

describe('what a program is', () => {
  test('an async arrow function, a single expression, or the body of a function; TypeScript’s types are stripped', async () => {
    expect(resultOf(await run('async () => { const a = await tools.echo({ n: 2 }); return a.n * 21 }'))).toBe(42);
    expect(resultOf(await run('1 + 2'))).toBe(3);
    expect(resultOf(await run('const x: number = 4; interface T { a: string } return x * 2'))).toBe(8);
    expect(resultOf(await run('console.log("no return")'))).toBe(null);
  });

  test('console.log lines are kept; a failed call throws an Error the program may catch', async () => {
    const outcome = await run('try { await tools.fail({}) } catch (error) { console.log("caught:", error.message, { n: 1 }) } return "ok"');
    expect(outcome).toEqual({ ok: true, resultJson: '"ok"', logs: ['caught: the tool failed {"n":1}'] });
  });

  test('an uncaught error and a syntax error are the program’s error, with the line', async () => {
    expect(await run('const a = 1;\nthrow new TypeError("bad " + a)')).toMatchObject({ ok: false, error: 'TypeError: bad 1 (line 2)' });
    expect(await run('return (')).toMatchObject({ ok: false, error: expect.stringMatching(/^SyntaxError/) });
    expect(await run('return () => 1')).toMatchObject({ ok: true, resultJson: 'null' });
  });

  test('Date and Math.random are fixed by the seed and clock: the same program gives the same values', async () => {
    const code = 'return [Date.now(), new Date().toISOString(), Math.random(), Math.random()]';
    const first = resultOf(await run(code)) as unknown[];
    expect(first.slice(0, 2)).toEqual([Date.UTC(2026, 0, 2, 3, 4, 5), '2026-01-02T03:04:05.000Z']);
    expect(resultOf(await run(code))).toEqual(first);
    expect(resultOf(await run(code, { seed: 8 }))).not.toEqual(first);
  });

  test('cancelled: the program ends at once, waiting or computing', async () => {
    for (const code of ['await tools.hang({})', 'while (true) {}']) {
      const controller = new AbortController();
      const startedAt = Date.now();
      setTimeout(() => controller.abort('cancelled'), 100);
      const outcome = await run(code, { signal: controller.signal, wallMs: 10_000 });
      expect(outcome.ok).toBe(false);
      // Before the gateway’s backstop (it ends a worker that does not answer 1 s after the stop).
      expect(Date.now() - startedAt).toBeLessThan(100 + 800);
    }
  });

  test('programs run side by side on separate workers', async () => {
    const startedAt = Date.now();
    const outcomes = await Promise.all([run('while (true) {}', { wallMs: 800 }), run('while (true) {}', { wallMs: 800 })]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([false, false]);
    expect(Date.now() - startedAt).toBeLessThan(1_600 + 1_000);
  });
});
