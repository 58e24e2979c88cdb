// Code mode's `execute` tool: runs a program in a sandbox, its `tools.*` calls as the caller's own tool calls, and
// answers only what the program returns, what it printed, and a line per call.
import 'server-only';
import { AsyncResource } from 'node:async_hooks';
import { HttpException, HttpStatus } from 'vovk';
import { z } from 'zod';
import type { Catalogue, Selected } from '../catalogue/catalogue.js';
import { tracedProgram } from '../catalogue/traced-run.js';
import type { CodeModeConfig } from '../config.js';
import { InputRequiredSignal } from '../mcp/client-input.js';
import type { ToolRunOptions } from '../mcp/register-tools.js';
import { callerKeyOf } from '../http/guards.js';
import { currentToolCall, requestContext, type ToolCall } from '../request-context.js';
import { standardTool, type StandardTool } from '../tools/index.js';
import { EXECUTE, SEARCH_TOOLS } from '../shared/catalogue-names.js';
import { type CallReport, type Journal, journalOf, ProgramRun } from './program-run.js';
import { SandboxPool } from './sandbox-pool.js';
import type { LimitName, ProgramOutcome } from './sandbox-protocol.js';

/** The longest program accepted, in characters. */
const MAX_CODE_LENGTH = 100_000;

const ExecuteInput = z.object({
  code: z
    .string()
    .min(1)
    .max(MAX_CODE_LENGTH)
    .meta({
      description:
        'JavaScript (TypeScript accepted: types are stripped): an async arrow function, or the body of one, e.g. ' +
        '`const tasks = await tools.TaskController_listTasks(); return tasks.length`',
    }),
});

const CallReportSchema = z.object({
  tool: z.string(),
  ms: z.number().meta({ description: 'How long it took' }),
  ok: z.boolean(),
  error: z.string().optional().meta({ description: 'Its error, when it failed' }),
});

const ExecuteOutput = z.object({
  result: z.unknown().meta({ description: 'What the program returned (JSON)' }),
  logs: z.array(z.string()).meta({ description: 'What it printed with console.log, line by line' }),
  calls: z.array(CallReportSchema).meta({ description: 'Each tool call it made, in order' }),
});

/** Code mode's limits (CODE_MODE_*) and the largest MCP request body (MCP_MAX_BODY_BYTES), which bounds what crosses. */
export type CodeModeLimits = CodeModeConfig & { maxBodyBytes: number };

/** The code mode of one gateway: its sandbox workers, its limits, and how its programs' calls run. */
export interface CodeMode {
  /** `execute` for a view: its programs call the view's tools. */
  executeTool(catalogue: Catalogue, view: Selected): StandardTool;
}

/** Each limit as its error names it: what it is and the setting that sets it. */
function limitText(limit: LimitName, limits: CodeModeConfig): string {
  const texts: Record<LimitName, string> = {
    wall: `wall time limit of ${limits.wallMs} ms (CODE_MODE_WALL_MS)`,
    memory: `memory limit of ${limits.memoryBytes} bytes (CODE_MODE_MEMORY_BYTES)`,
    calls: `limit of ${limits.maxCalls} tool calls (CODE_MODE_MAX_CALLS)`,
    result: `result size limit of ${limits.maxResultBytes} bytes (CODE_MODE_MAX_RESULT_BYTES)`,
    logs: `log size limit of ${limits.maxLogBytes} bytes (CODE_MODE_MAX_LOG_BYTES)`,
  };
  return texts[limit];
}

/** The error `execute` answers for a program that failed: why, then what it printed and the calls it made. */
function programFailure(outcome: Extract<ProgramOutcome, { ok: false }>, calls: CallReport[], limits: CodeModeConfig): HttpException {
  const why = outcome.limit ? `The program was stopped: it passed the ${limitText(outcome.limit, limits)}` : `The program failed: ${outcome.error}`;
  const logs = outcome.logs.length ? `\nLogs:\n${outcome.logs.join('\n')}` : '';
  const made = calls.map((call) => `${call.tool} (${call.ms} ms, ${call.ok ? 'ok' : `failed: ${call.error}`})`);
  return new HttpException(HttpStatus.UNPROCESSABLE_ENTITY, `${why}${logs}${made.length ? `\nCalls: ${made.join('; ')}` : ''}`);
}

const DESCRIPTION =
  `Runs a short JavaScript program against this server's tools and answers only what it returns: use it for work of ` +
  `several calls (list, then act on each) instead of one call per step. Find the tools with ${SEARCH_TOOLS}: each hit ` +
  'has its TypeScript signature. In the program, `await tools.<tool_name>(args)` calls a tool with the arguments its ' +
  'inputSchema takes and returns its value (its structured result; an array result as the array; a text result as ' +
  'its text); a failed call throws an Error with its message. `console.log` prints to `logs`. Answers ' +
  '{ result, logs, calls }. Plain JavaScript only: no fetch, require, import, process or timers; Date and Math.random ' +
  'are fixed for the run. Limits: time (waiting for tools included), memory, number of calls, size of result and logs.';

const never = new AbortController().signal;

/** A caller's next program while it runs as many as it may (CODE_MODE_MAX_PER_CALLER). */
const tooManyPrograms = (limits: CodeModeConfig) =>
  new HttpException(
    429 as HttpStatus,
    `Too many programs at once: this caller runs ${limits.maxPerCaller} already (CODE_MODE_MAX_PER_CALLER); run the next when one has ended`,
  );

/**
 * The journal a confirmation must carry is re-sent by the client in its requestState, within MCP_MAX_BODY_BYTES
 * (base64 takes a third more): the earlier calls of a program that asks must return less than this.
 */
const journalFits = (journal: Journal, limits: CodeModeLimits) => JSON.stringify(journal).length * 1.4 < limits.maxBodyBytes;

const journalTooLarge = (limits: CodeModeLimits) =>
  new HttpException(
    HttpStatus.UNPROCESSABLE_ENTITY,
    `The program was stopped: a call asks the user, but the calls before it returned too much to carry into the answer ` +
      `(its requestState must fit in MCP_MAX_BODY_BYTES = ${limits.maxBodyBytes} bytes); make the calls before a ` +
      'confirmation return less, or ask for the confirmation first',
  );

/** The code mode of a gateway with `limits`, whose programs' calls run as `run` says. */
export function createCodeMode(limits: CodeModeLimits, run: ToolRunOptions): CodeMode {
  let pool: SandboxPool | undefined;
  /** Programs running or waiting, by caller (guards' `callerKeyOf`). */
  const programsOf = new Map<string, number>();
  const poolOf = () => (pool ??= new SandboxPool(limits.workers));
  const toolNames = new WeakMap<Selected, string[]>();
  return {
    executeTool: (catalogue, view) => {
      // A connection of the code surface will run programs: its first one need not wait for a worker to start.
      if (view.surface === 'code') poolOf().warm();
      /** Runs `code` as the program of the execute call `outer`: its answer, or the error it throws. */
      const runProgram = async (code: string, outer: ToolCall) => {
        const journal = journalOf(outer.carry);
        const innerCalls = new ProgramRun({ catalogue, view, run, outer, journal, maxArgumentBytes: limits.maxBodyBytes });
        const signal = requestContext()?.work?.signal ?? never;
        const deadline = Date.now() + limits.wallMs;
        let names = toolNames.get(view);
        // A program may call a tool by an old name too (`@toolAliases`), as a direct call may.
        if (!names) toolNames.set(view, (names = [...view.selected.keys(), ...view.aliases.keys()]));
        const program = { code, tools: names, seed: journal.seed, now: journal.now, limits: { deadline, ...limits }, signal };
        const outcome = await tracedProgram(
          EXECUTE,
          // The program's calls run in this call's context (its caller, request, the program's span), not the worker's.
          () => poolOf().run({ ...program, callTool: AsyncResource.bind(innerCalls.call) }),
          (ended) => !ended.ok,
        );
        // Calls still running finish, and are journaled, before execute answers — unless the program was stopped.
        if (!outcome.ok && (outcome.limit || signal.aborted)) innerCalls.stop();
        const late = setTimeout(() => innerCalls.stop(), Math.max(0, deadline - Date.now()));
        await innerCalls.settled();
        clearTimeout(late);
        if (innerCalls.pendingInput) {
          if (!journalFits(journal, limits)) throw journalTooLarge(limits);
          outer.carry = journal;
          outer.pendingInput = innerCalls.pendingInput;
          throw new InputRequiredSignal(innerCalls.pendingInput);
        }
        if (!outcome.ok) throw programFailure(outcome, innerCalls.reports, limits);
        return { result: JSON.parse(outcome.resultJson) as unknown, logs: outcome.logs, calls: innerCalls.reports };
      };
      return standardTool({
        name: EXECUTE,
        title: 'Run a program of tool calls',
        description: DESCRIPTION,
        // Each call it makes asks its own confirmation; a read-only selection makes it read-only.
        annotations: { readOnlyHint: view.readonly, destructiveHint: false, openWorldHint: false },
        inputSchema: ExecuteInput,
        outputSchema: ExecuteOutput,
        execute: async ({ code }) => {
          const outer = currentToolCall();
          const request = requestContext()?.request;
          if (!outer || !request) throw new HttpException(HttpStatus.BAD_REQUEST, `${EXECUTE} runs only as an MCP tool call`);
          const caller = callerKeyOf(request);
          const running = programsOf.get(caller) ?? 0;
          if (running >= limits.maxPerCaller) throw tooManyPrograms(limits);
          programsOf.set(caller, running + 1);
          try {
            return await runProgram(code, outer);
          } finally {
            const left = (programsOf.get(caller) ?? 1) - 1;
            if (left) programsOf.set(caller, left);
            else programsOf.delete(caller);
          }
        },
      });
    },
  };
}
