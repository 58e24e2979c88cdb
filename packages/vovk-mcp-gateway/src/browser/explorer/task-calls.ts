// Tool calls that declare the Tasks extension (SEP-2663), through the official requester client of ext-tasks: the
// server answers at once or with a task, which is polled to its end (its questions put to the user, answered with
// tasks/update), cancelled with tasks/cancel, and remembered for this tab so that a reload follows it again.
import 'client-only';
import { type CallToolResult, type Client, ProtocolError, type Tool } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  DispatchError,
  JsonRpcResponseError,
  type TaskOutcome,
  TaskFailedError,
  type TaskView,
  type ToolDeclaration,
  toolDeclarationFromMcpTool,
  type ToolExecution,
  type V2RequestFraming,
} from '@modelcontextprotocol/ext-tasks/client';
import { type TaskId, taskId as asTaskId } from '@modelcontextprotocol/ext-tasks/core';
import type { AskUser, Question } from './gateway-client.js';
import type { RawRequests } from './raw-requests.js';
import { forgetTask, type RunningTask, rememberTask } from './running-tasks.js';
import {
  asToolResult,
  CallCancelledError,
  ConnectionClosedError,
  type RunListeners,
  type TaskStatus,
  type ToolRun,
} from './tool-run.js';

export interface TaskCalls {
  /** tools/call with the extension declared: followed to its end, whether the server answers at once or with a task. */
  start(name: string, args: Record<string, unknown>, listeners?: RunListeners): ToolRun;
  /** Follows a task an earlier page started (its tasks/get first), to its end. */
  resume(task: RunningTask, listeners?: RunListeners): ToolRun;
  /** Stops following (tasks still running stay remembered, and keep running on the server), and closes the session. */
  close(): Promise<void>;
}

interface TaskCallsOptions {
  /** The MCP endpoint: the identity the remembered tasks are scoped to. */
  endpoint: URL;
  /** What the tools/list listed: the requester reads each tool's declaration from it. */
  tools: Tool[];
  /** The per-request envelope the 2026-07-28 requests carry (the requester adds the extension to its capabilities). */
  framing: V2RequestFraming;
  raw: RawRequests;
  askUser: AskUser;
}

/** Which tool a call or task is of: the requester hands it back with each question, so the dialog can say who asks. */
interface CallContext {
  toolName: string;
}

type Execution = ToolExecution<CallToolResult, CallContext>;

/**
 * The error a direct call would have met: a JSON-RPC error (an answer, or a failed task's) as the Client's
 * ProtocolError; a request that could not be sent (the tools/call, or a poll) as what stopped it.
 */
function asCallError(error: unknown): unknown {
  if (error instanceof JsonRpcResponseError || (error instanceof TaskFailedError && error.code !== undefined)) {
    return new ProtocolError(error.code!, error.message, error.data);
  }
  const wrapper = error instanceof TaskFailedError || error instanceof DispatchError;
  return wrapper && error.cause !== undefined ? asCallError(error.cause) : error;
}

/** Whether the server ended the task (a terminal status), rather than the page losing sight of it (a failed poll). */
const endedOnServer = (outcome: TaskOutcome<CallToolResult>) =>
  outcome.status !== 'failed' || outcome.error.code !== undefined;

function resultOf(outcome: TaskOutcome<CallToolResult>): CallToolResult {
  if (outcome.status === 'completed') return asToolResult(outcome.result);
  if (outcome.status === 'cancelled') throw new CallCancelledError();
  throw asCallError(outcome.error);
}

const statusOf = ({ taskId, status, statusMessage }: TaskView): TaskStatus => ({ taskId, status, statusMessage });

/** Opens the requester session over `client` (connected, pinned to 2026-07-28); `raw` sends what the Client cannot. */
export function openTaskCalls(client: Client, { endpoint, tools, framing, raw, askUser }: TaskCallsOptions): TaskCalls {
  const declarations = new Map<string, ToolDeclaration>(
    tools.map((tool) => [tool.name, toolDeclarationFromMcpTool(tool)]),
  );
  const endpointId = endpoint.href;
  const session = createTaskSessionFromClient<CallContext>(client, {
    endpointId,
    tools: { currentTool: (name) => declarations.get(name) },
    rawDispatch: raw.dispatch,
    v2RequestFraming: framing,
    async onInputRequest(request, { applicationContext, signal }) {
      if (request.kind !== 'elicitation') {
        throw new Error(`The explorer answers form questions only, not ${request.kind} requests`);
      }
      const question = request.params as unknown as Question;
      return (await askUser(question, signal ?? new AbortController().signal, applicationContext.toolName)) as never;
    },
  });
  const following = new Set<Execution>();
  let closed = false;
  let lastProgressToken = 0;

  /** Waits for the end of `execution`, reporting each state of its task; forgets the task once it has ended. */
  async function follow(execution: Execution, listeners: RunListeners): Promise<CallToolResult> {
    if (execution.kind === 'immediate') return resultOf(await execution.result());
    following.add(execution);
    try {
      const { outcome } = await execution.settle({
        onEvent: (event) => void (event.type === 'task' && listeners.onTask?.(statusOf(event.task))),
      });
      if (closed) throw new ConnectionClosedError();
      if (endedOnServer(outcome)) forgetTask(execution.handle.taskId);
      return resultOf(outcome);
    } finally {
      following.delete(execution);
    }
  }

  /**
   * A run of `started` (a call, or the lookup of a task `knownTaskId`). Cancelling a task sends tasks/cancel; a call
   * not answered yet drops its request.
   */
  function run(
    started: (signal: AbortSignal) => Promise<Execution>,
    listeners: RunListeners,
    knownTaskId?: TaskId,
  ): ToolRun {
    const starting = new AbortController();
    let execution: Execution | undefined;
    const result = (async () => {
      try {
        execution = await started(starting.signal);
        return await follow(execution, listeners);
      } catch (error) {
        if (closed) throw new ConnectionClosedError();
        throw starting.signal.aborted ? new CallCancelledError() : asCallError(error);
      }
    })();
    return {
      result,
      // tasks/cancel through a controller of its own, not the execution's: the run ends `cancelled` when the server
      // says so (a task that finished first stays completed), and a cancel that did not reach it may be tried again.
      cancel: async () => {
        const taskId = execution?.kind === 'task' ? execution.handle.taskId : knownTaskId;
        if (!taskId) return starting.abort();
        try {
          await session.task(taskId).cancel();
        } catch (error) {
          throw asCallError(error);
        }
      },
    };
  }

  return {
    start(name, args, listeners = {}) {
      const progressToken = `explorer-${++lastProgressToken}`;
      const stopProgress = listeners.onProgress && raw.onProgress(progressToken, listeners.onProgress);
      return run(async (signal) => {
        try {
          const execution = await session.callTool<CallToolResult>(name, args as never, {
            signal,
            applicationContext: { toolName: name },
            ...(stopProgress ? { metadata: { progressToken } } : {}),
          });
          if (execution.kind === 'task') {
            rememberTask({ toolName: name, taskId: execution.handle.taskId, arguments: args });
          }
          return execution;
        } finally {
          stopProgress?.(); // a call's progress comes while it is answered; a task's status, by polling
        }
      }, listeners);
    },

    resume(task, listeners = {}) {
      const taskId = asTaskId(task.taskId);
      const reference = { endpointId, generation: 'v2', taskId, originalOperation: 'tools/call' } as const;
      const context = { toolName: task.toolName };
      return run(
        async () => {
          try {
            return await session.resumeTask<CallToolResult>(reference, { applicationContext: context });
          } catch (error) {
            // The server does not know it (any more): expired, removed, another caller's. A transport failure says
            // nothing of the task, which stays remembered.
            if (!(error instanceof DispatchError)) forgetTask(task.taskId);
            throw error;
          }
        },
        listeners,
        taskId,
      );
    },

    async close() {
      closed = true;
      // Detached rather than closed: closing would cancel them, and a task should outlive the page that started it.
      await Promise.all([...following].map(async (execution) => {
        await execution.detach();
        await execution.result();
      }));
      await session.close();
    },
  };
}
