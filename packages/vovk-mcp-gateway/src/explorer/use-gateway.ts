// React state of the explorer's MCP connection (connecting, the listed tools, or why it failed), its tool calls, its
// tool searches and the questions those calls ask the user.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  connectGateway,
  explorerEndpoint,
  type GatewayConnection,
  type StartOptions,
  type Tool,
} from '../browser/explorer/gateway-client.js';
import type { ResourceAccess } from '../browser/explorer/resources.js';
import type { RunningTask } from '../browser/explorer/running-tasks.js';
import type { RunListeners, ToolRun } from '../browser/explorer/tool-run.js';
import { useQuestions } from './use-questions.js';

export type GatewayState = { status: 'connecting' } | { status: 'ready'; tools: Tool[] } | { status: 'failed'; error: string };

export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

const noSubscription = () => () => {};

/** The resources of whichever connection is open when they are used (a retry opens another). */
function connectionResources(opened: () => GatewayConnection): ResourceAccess {
  return {
    list: async (fresh) => opened().resources.list(fresh),
    templates: async (fresh) => opened().resources.templates(fresh),
    read: async (uri, fresh) => opened().resources.read(uri, fresh),
    canWatch: () => opened().resources.canWatch(),
    watch: async (uri, onUpdated) => opened().resources.watch(uri, onUpdated),
    close: async () => {},
  };
}

/** This page's origin; empty while rendering on the server. */
export function useOrigin(): string {
  return useSyncExternalStore(noSubscription, () => location.origin, () => '');
}

/**
 * Connects to the gateway's MCP endpoint on this page's origin once mounted; `retry` connects again. `question` is
 * the question a running call asks the user now, if any.
 */
export function useGateway(origin: string) {
  const [state, setState] = useState<GatewayState>({ status: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const connection = useRef<GatewayConnection | null>(null);
  /** The tools whose calls are running, one entry per call. */
  const running = useRef<string[]>([]);
  // A question comes from a running call: when only one runs, it is that call's tool asking.
  const askedBy = useCallback(() => (running.current.length === 1 ? running.current[0] : undefined), []);
  const { current: question, ask } = useQuestions(askedBy);

  useEffect(() => {
    if (!origin) return;
    let active = true;
    setState({ status: 'connecting' });
    connectGateway(explorerEndpoint(origin), ask).then(
      (opened) => {
        if (!active) return void opened.close();
        connection.current = opened;
        setState({ status: 'ready', tools: opened.tools });
      },
      (error: unknown) => active && setState({ status: 'failed', error: errorMessage(error) }),
    );
    return () => {
      active = false;
      void connection.current?.close();
      connection.current = null;
    };
  }, [origin, attempt, ask]);

  const opened = useCallback(() => {
    if (!connection.current) throw new Error('not connected to the MCP endpoint');
    return connection.current;
  }, []);
  /** Counts a call of `name` among the running ones until `result` settles. */
  const track = useCallback(<T,>(name: string, result: Promise<T>): Promise<T> => {
    running.current.push(name);
    const untrack = () => void running.current.splice(running.current.indexOf(name), 1);
    result.then(untrack, untrack);
    return result;
  }, []);
  const tracked = useCallback((name: string, run: ToolRun) => ({ ...run, result: track(name, run.result) }), [track]);
  const callTool = useCallback(
    async (name: string, args: Record<string, unknown>) => track(name, opened().callTool(name, args)),
    [opened, track],
  );
  const startTool = useCallback(
    (name: string, args: Record<string, unknown>, options: StartOptions) =>
      tracked(name, opened().startTool(name, args, options)),
    [opened, tracked],
  );
  const runningTaskOf = useCallback((toolName: string) => connection.current?.runningTaskOf(toolName), []);
  const resumeTask = useCallback(
    (task: RunningTask, listeners?: RunListeners) => tracked(task.toolName, opened().resumeTask(task, listeners)),
    [opened, tracked],
  );
  const resources = useMemo(() => connectionResources(opened), [opened]);
  const searchTools = useCallback(
    async (query: string, signal: AbortSignal) => opened().searchTools(query, signal),
    [opened],
  );
  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  const calls = useMemo(
    () => ({ callTool, startTool, runningTaskOf, resumeTask, resources, searchTools }),
    [callTool, startTool, runningTaskOf, resumeTask, resources, searchTools],
  );

  return { state, calls, retry, question };
}
