// The messages between the gateway and a sandbox worker (sandbox-worker.mjs): plain data only, in both directions.
import 'server-only';
import type { CodeModeConfig } from '../config.js';

/**
 * The limits of one program (CODE_MODE_*), and `deadline`: when it must have ended, in epoch milliseconds (its wall
 * time, waiting for tools included).
 */
export type SandboxLimits = Omit<CodeModeConfig, 'workers' | 'maxPerCaller'> & { deadline: number };

/** Runs one program: `code` (JavaScript or TypeScript), `tools` the names `tools.*` has, `seed`/`now` its Math.random and Date. */
export interface RunMessage {
  type: 'run';
  code: string;
  tools: string[];
  seed: number;
  now: number;
  limits: SandboxLimits;
}

/** The answer to one `call` of the program: the value's JSON, or the error the program sees. */
export type CallResultMessage = { type: 'callResult'; callId: number } & ({ ok: true; json: string } | { ok: false; message: string });

/** Ends the program now (cancelled, or the gateway's own clock passed its deadline). */
interface StopMessage {
  type: 'stop';
  reason: string;
}

export type ToWorker = RunMessage | CallResultMessage | StopMessage;

/** Which limit a program passed (`Limit` names the setting in the gateway's message). */
export type LimitName = 'wall' | 'memory' | 'calls' | 'result' | 'logs';

/** The program calls `tools.<tool>(args)`. */
interface CallMessage {
  type: 'call';
  callId: number;
  tool: string;
  argsJson: string;
}

/** How a program ended: its result's JSON, or its error (and the limit it passed, if that is why); what it printed. */
export type ProgramOutcome = { logs: string[] } & ({ ok: true; resultJson: string } | { ok: false; error: string; limit?: LimitName });

/** The program ended; `retire`: this worker cannot run another (its engine failed to free the run) and exits. */
type DoneMessage = { type: 'done'; retire?: true } & ProgramOutcome;

export type FromWorker = { type: 'ready' } | CallMessage | DoneMessage;
