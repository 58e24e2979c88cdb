// The runs of a tool (a card's, the code console's `execute`): starts a call (or, once mounted, follows the task an
// earlier page of this tab left running), keeps what it reports while it runs, cancels it, and keeps how it ended.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppHostGateway } from '../browser/explorer/app-host.js';
import type { StartOptions } from '../browser/explorer/gateway-client.js';
import type { RunningTask } from '../browser/explorer/running-tasks.js';
import {
  CallCancelledError,
  ConnectionClosedError,
  type RunListeners,
  type TaskStatus,
  type ToolRun,
} from '../browser/explorer/tool-run.js';
import type { Running, RunState } from './result-view.js';

/** What a run needs of the explorer's MCP connection: calls it can start, or follow again, and cancel. */
export interface RunGateway {
  startTool(name: string, args: Record<string, unknown>, options: StartOptions): ToolRun;
  runningTaskOf(toolName: string): RunningTask | undefined;
  resumeTask(task: RunningTask, listeners?: RunListeners): ToolRun;
}

/** What a card needs of the explorer's MCP connection: its app's calls, and runs it can follow and cancel. */
export interface ExplorerGateway extends AppHostGateway, RunGateway {}

export function useToolRun(toolName: string, gateway: RunGateway) {
  const [run, setRun] = useState<RunState>({ status: 'idle' });
  /** Counts the results: each gets an app of its own. */
  const [results, setResults] = useState(0);
  const [ranWith, setRanWith] = useState<Record<string, unknown>>({});
  const current = useRef<ToolRun | null>(null);

  const whileRunning = useCallback(
    (change: Partial<Running>) => setRun((state) => (state.status === 'running' ? { ...state, ...change } : state)),
    [],
  );

  /** Shows the run `start` begins, from its first report to its end; `observer` hears each report too. */
  const follow = useCallback(
    async (args: Record<string, unknown>, start: (listeners: RunListeners) => ToolRun, observer: RunListeners = {}) => {
      let task: TaskStatus | undefined;
      setRun({ status: 'running' });
      let toolRun: ToolRun;
      try {
        toolRun = start({
          onProgress: (progress) => {
            observer.onProgress?.(progress);
            whileRunning({ progress });
          },
          onTask: (seen) => {
            observer.onTask?.(seen);
            whileRunning({ task: (task = seen) });
          },
        });
      } catch (error) {
        return setRun({ status: 'failed', error });
      }
      current.current = toolRun;
      try {
        const result = await toolRun.result;
        setRanWith(args);
        setResults((count) => count + 1);
        setRun({ status: 'done', result, task });
      } catch (error) {
        // The connection is closing (sign-out, a retry): the cards go with it; a task runs on, to be followed again.
        if (error instanceof ConnectionClosedError) return;
        setRun(error instanceof CallCancelledError ? { status: 'cancelled', task } : { status: 'failed', error, task });
      } finally {
        if (current.current === toolRun) current.current = null;
      }
    },
    [whileRunning],
  );

  /** Starts a call; `observer` hears every report it makes (the run keeps only the last). */
  const start = useCallback(
    (args: Record<string, unknown>, withTasks: boolean, observer?: RunListeners) =>
      follow(args, (listeners) => gateway.startTool(toolName, args, { withTasks, ...listeners }), observer),
    [follow, gateway, toolName],
  );

  const cancel = useCallback(async () => {
    const toolRun = current.current;
    if (!toolRun) return;
    whileRunning({ cancelling: true, cancelError: undefined });
    try {
      await toolRun.cancel();
    } catch (error) {
      whileRunning({ cancelling: false, cancelError: error });
    }
  }, [whileRunning]);

  // Once per card: a ref, not the effect's cleanup, so that React's second mount in development does not follow twice.
  const resumed = useRef(false);
  useEffect(() => {
    if (resumed.current) return;
    resumed.current = true;
    const task = gateway.runningTaskOf(toolName);
    if (task) void follow(task.arguments, (listeners) => gateway.resumeTask(task, listeners));
  }, [follow, gateway, toolName]);

  return { run, results, ranWith, start, cancel };
}
