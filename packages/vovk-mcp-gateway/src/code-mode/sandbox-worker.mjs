// @ts-check
// A worker thread that runs code-mode programs, one at a time, each in a QuickJS (WebAssembly) runtime of its own:
// the program sees plain JavaScript, `tools.*` (each call a message to the gateway) and `console.log`, nothing else.
import { parentPort, workerData } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core';
import { transform } from 'sucrase';

/** @typedef {import('./sandbox-protocol.js').ToWorker} ToWorker */
/** @typedef {import('./sandbox-protocol.js').FromWorker} FromWorker */
/** @typedef {import('./sandbox-protocol.js').RunMessage} RunMessage */
/** @typedef {import('./sandbox-protocol.js').LimitName} LimitName */

/** The deepest the program's own calls may nest (bytes of the interpreter's stack). */
const STACK_BYTES = 512 * 1024;

/**
 * What every program starts with, evaluated before it: `tools` (a call per property), `console`, a Date frozen at the
 * execution's start and a seeded Math.random (a program run again after a confirmation takes the same path), and the
 * host's bridge functions taken off the global object.
 */
const PRELUDE = `
(() => {
  const call = globalThis.__call, log = globalThis.__log, done = globalThis.__done;
  const names = JSON.parse(globalThis.__toolNames), now = globalThis.__now;
  let seed = globalThis.__seed >>> 0;
  for (const key of ['__call', '__log', '__done', '__toolNames', '__now', '__seed']) delete globalThis[key];
  const json = (value) => { try { return JSON.stringify(value); } catch { return String(value); } };
  const tool = (name) => async (args) => {
    const text = await call(name, JSON.stringify(args === undefined ? {} : args) ?? '{}');
    return JSON.parse(text);
  };
  const known = new Set(names);
  globalThis.tools = new Proxy({}, {
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
    get: (_, key) => (typeof key === 'string' && key !== 'then' ? tool(key) : undefined),
    has: (_, key) => known.has(key),
    ownKeys: () => names,
    getOwnPropertyDescriptor: (_, key) => (known.has(key) ? { value: tool(key), enumerable: true, configurable: true } : undefined),
  });
  const print = (...args) => log(args.map((arg) => (typeof arg === 'string' ? arg : json(arg))).join(' '));
  globalThis.console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });
  Math.random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const RealDate = Date;
  function FixedDate(...args) {
    if (!new.target) return new RealDate(now).toString();
    return args.length ? new RealDate(...args) : new RealDate(now);
  }
  FixedDate.prototype = RealDate.prototype;
  FixedDate.now = () => now;
  FixedDate.parse = RealDate.parse;
  FixedDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: FixedDate });
  globalThis.Date = FixedDate;
  const describe = (error) => {
    if (!(error instanceof Error)) return 'Uncaught ' + json(error);
    const line = /program\\.js:(\\d+)/.exec(String(error.stack ?? ''))?.[1];
    return error.name + ': ' + error.message + (line ? ' (line ' + line + ')' : '');
  };
  globalThis.__start = (main) => {
    // Called once, by the gateway: the program cannot start another run of itself to answer early.
    delete globalThis.__start;
    Promise.resolve()
      .then(main)
      .then((value) => {
        let text;
        try { text = JSON.stringify(value === undefined ? null : value); } catch (error) { return done(false, 'The result is not JSON: ' + error.message); }
        done(true, text ?? 'null');
      }, (error) => done(false, describe(error)));
  };
})();
`;

const quickJS = await newQuickJSWASMModuleFromVariant(variant);

/**
 * The engine's memory, and its size before any program ran. QuickJS's own memory limit counts objects but not the
 * bytes of large strings and typed arrays (quickjs-emscripten 0.32: a runtime reaches the 2 GiB this build may grow to
 * under a 64 MiB limit), so a program is also stopped once it grew this memory by more than its memory limit.
 */
const wasmMemory = quickJS.getWasmMemory();
const initialMemoryBytes = wasmMemory.buffer.byteLength;

/** Set to 1 by the gateway to stop the program running now: read between its steps, even while it computes. */
const stopFlag = new Int32Array(/** @type {SharedArrayBuffer} */ (workerData.stopFlag));

/** The program as JavaScript: TypeScript's types stripped (a syntax error is the program's error). */
function javascriptOf(/** @type {string} */ code) {
  return transform(code, { transforms: ['typescript'], disableESTransforms: true }).code;
}

/**
 * The program as a function the prelude's `__start` runs: a single expression is its value (called when it is a
 * function, as `async () => { … }`); anything else is the body of an async function (`return` gives the result).
 */
function mainOf(/** @type {import('quickjs-emscripten-core').QuickJSContext} */ vm, /** @type {string} */ js) {
  const expression = `(async () => { return await (async (value) => typeof value === 'function' ? value() : value)((${js}\n)); })`;
  const compiled = vm.evalCode(expression, 'program.js', { compileOnly: true });
  const isExpression = !compiled.error;
  (compiled.error ?? compiled.value).dispose();
  return isExpression ? expression : `(async () => { ${js}\n})`;
}

/** The run in progress (one at a time). */
/** @type {{ settle: (message: FromWorker) => void, stop: (reason: string, limit?: LimitName) => void, answer: (message: any) => void } | undefined} */
let current;

function post(/** @type {FromWorker} */ message) {
  parentPort?.postMessage(message);
}

function run(/** @type {RunMessage} */ message) {
  const { limits } = message;
  const logs = /** @type {string[]} */ ([]);
  let logBytes = 0;
  let calls = 0;
  /** Why the program must end now, once it must. @type {{ error: string, limit?: LimitName } | undefined} */
  let stopped;
  let finished = false;
  /** @type {Map<number, import('quickjs-emscripten-core').QuickJSDeferredPromise>} */
  const pending = new Map();
  const runtime = quickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(STACK_BYTES);
  const vm = runtime.newContext();
  const pastDeadline = () => Date.now() > limits.deadline;
  const pastMemory = () => wasmMemory.buffer.byteLength > initialMemoryBytes + limits.memoryBytes;
  Atomics.store(stopFlag, 0, 0);
  runtime.setInterruptHandler(() => {
    if (!stopped && pastDeadline()) stopped = { error: 'wall time', limit: 'wall' };
    if (!stopped && pastMemory()) stopped = { error: 'memory', limit: 'memory' };
    if (!stopped && Atomics.load(stopFlag, 0) === 1) stopped = { error: 'cancelled' };
    return stopped !== undefined;
  });
  const timer = setTimeout(() => stop('wall time', 'wall'), Math.max(0, limits.deadline - Date.now()));

  /** Ends the run once: every handle released, the runtime freed, the answer posted. */
  const finish = (/** @type {FromWorker} */ answer) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    current = undefined;
    for (const deferred of pending.values()) deferred.dispose();
    pending.clear();
    // A runtime that cannot be freed cleanly (after running out of memory) leaves this engine unusable, and an engine
    // grown past the memory limit stays that large (WebAssembly memory never shrinks): answer, and exit (the gateway
    // starts another worker).
    let retire = false;
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      retire = true;
    }
    if (!retire && !pastMemory()) return post(answer);
    post(answer.type === 'done' ? { ...answer, retire: true } : answer);
    process.exit(1);
  };
  const stop = (/** @type {string} */ error, /** @type {LimitName | undefined} */ limit) => {
    stopped ??= { error, ...(limit && { limit }) };
    finish({ type: 'done', ok: false, error: stopped.error, ...(stopped.limit && { limit: stopped.limit }), logs });
  };
  /** Runs the jobs the last step queued (promise reactions); an interrupted program ends here. */
  const pump = () => {
    if (finished) return;
    const jobs = runtime.executePendingJobs();
    if (jobs.error) {
      // A job that failed outside the program's own handlers: out of memory (they could not run), or interrupted.
      const error = vm.dump(jobs.error);
      jobs.error.dispose();
      if (/out of memory/i.test(String(error?.message ?? error))) stopped ??= { error: 'memory', limit: 'memory' };
      else stopped ??= { error: `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}` };
    }
    if (stopped) stop(stopped.error, stopped.limit);
  };

  const bridge = (/** @type {string} */ name, /** @type {(...args: any[]) => any} */ fn) => {
    const handle = vm.newFunction(name, fn);
    vm.setProp(vm.global, name, handle);
    handle.dispose();
  };
  bridge('__call', (nameHandle, argsHandle) => {
    const deferred = vm.newPromise();
    calls += 1;
    if (calls > limits.maxCalls) {
      stopped ??= { error: `more than ${limits.maxCalls} tool calls`, limit: 'calls' };
      const error = vm.newError(stopped.error);
      deferred.reject(error);
      error.dispose();
      return deferred.handle;
    }
    const callId = calls;
    pending.set(callId, deferred);
    post({ type: 'call', callId, tool: vm.getString(nameHandle), argsJson: vm.getString(argsHandle) });
    return deferred.handle;
  });
  bridge('__log', (textHandle) => {
    const text = vm.getString(textHandle);
    logBytes += Buffer.byteLength(text) + 1;
    if (logBytes > limits.maxLogBytes) stopped ??= { error: `more than ${limits.maxLogBytes} bytes of logs`, limit: 'logs' };
    else logs.push(text);
  });
  bridge('__done', (okHandle, textHandle) => {
    // A program past a limit ends with that limit's error, whatever it did with the error it got.
    if (stopped) return;
    const ok = vm.dump(okHandle) === true;
    const text = vm.getString(textHandle);
    if (ok && Buffer.byteLength(text) > limits.maxResultBytes) {
      stopped ??= { error: `a result of more than ${limits.maxResultBytes} bytes`, limit: 'result' };
      return;
    }
    if (!ok && /out of memory/i.test(text)) {
      stopped ??= { error: 'memory', limit: 'memory' };
      return;
    }
    // Settled on the next turn: the runtime is still running this call.
    setImmediate(() => finish(ok ? { type: 'done', ok: true, resultJson: text, logs } : { type: 'done', ok: false, error: text, logs }));
  });
  const setNumber = (/** @type {string} */ name, /** @type {number} */ value) => {
    const handle = vm.newNumber(value);
    vm.setProp(vm.global, name, handle);
    handle.dispose();
  };
  const names = vm.newString(JSON.stringify(message.tools));
  vm.setProp(vm.global, '__toolNames', names);
  names.dispose();
  setNumber('__now', message.now);
  setNumber('__seed', message.seed);

  current = {
    settle: finish,
    stop,
    answer: (/** @type {import('./sandbox-protocol.js').CallResultMessage} */ result) => {
      const deferred = pending.get(result.callId);
      if (!deferred || finished) return;
      pending.delete(result.callId);
      const value = result.ok ? vm.newString(result.json) : vm.newError(result.message);
      if (result.ok) deferred.resolve(value);
      else deferred.reject(value);
      value.dispose();
      deferred.dispose();
      pump();
    },
  };

  const prelude = vm.evalCode(PRELUDE, 'prelude.js');
  (prelude.error ?? prelude.value).dispose();
  let js;
  try {
    js = javascriptOf(message.code);
  } catch (error) {
    return stop(`SyntaxError: ${error instanceof Error ? error.message : String(error)}`);
  }
  const started = vm.evalCode(`__start(${mainOf(vm, js)})`, 'program.js');
  if (started.error) {
    const error = vm.dump(started.error);
    started.error.dispose();
    return stop(stopped?.error ?? `${error?.name ?? 'Error'}: ${error?.message ?? String(error)}`, stopped?.limit);
  }
  started.value.dispose();
  pump();
}

parentPort?.on('message', (/** @type {ToWorker} */ message) => {
  if (message.type === 'run') run(message);
  else if (message.type === 'callResult') current?.answer(message);
  else if (message.type === 'stop') current?.stop(message.reason);
});
post({ type: 'ready' });
