// One running tool call of the explorer, however it runs (a plain call, or a task): what it reports while it runs,
// how it is cancelled, and how it ends.
import 'client-only';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { TaskState } from '@modelcontextprotocol/ext-tasks/client';

/** How far a call has got, from its `notifications/progress`: `progress` done of `total` (when known). */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A task as its last `tasks/get` showed it (SEP-2663 tasks carry no numbers: `statusMessage` says how far). */
export interface TaskStatus {
  taskId: string;
  status: TaskState;
  statusMessage?: string;
}

/** What a running call reports to whoever shows it. */
export interface RunListeners {
  onProgress?(progress: CallProgress): void;
  onTask?(task: TaskStatus): void;
}

export interface ToolRun {
  /** The tool's result; rejects with {@link CallCancelledError} once the call is cancelled, else with why it failed. */
  result: Promise<CallToolResult>;
  /**
   * Asks to stop. A call waiting for its answer drops its request (the gateway then aborts the work); a task is sent
   * `tasks/cancel`, and `result` rejects once the task is seen cancelled. Rejects when the server could not be told.
   */
  cancel(): Promise<void>;
}

/** How a run that was cancelled ends. */
export class CallCancelledError extends Error {
  constructor() {
    super('The call was cancelled');
    this.name = 'CallCancelledError';
  }
}

/** How a run ends when the explorer closes its connection meanwhile (a task runs on, followed again after a reload). */
export class ConnectionClosedError extends Error {
  constructor() {
    super('the explorer closed its MCP connection');
    this.name = 'ConnectionClosedError';
  }
}

/** A result as a plain client returns it: 2026-07-28's `resultType` discriminator is the protocol's, not the tool's. */
export function asToolResult(result: CallToolResult & { resultType?: unknown }): CallToolResult {
  const { resultType: _resultType, ...toolResult } = result;
  return toolResult;
}
