// MCP tasks from gateway_jobs: the Tasks extension (SEP-2663, 2026-07-28) and 2025-11-25's experimental tasks.
import 'server-only';
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { CreateTaskResultV1Schema, GetTaskResultV1Schema, ListTasksResultV1Schema } from '@modelcontextprotocol/ext-tasks/core/v1';
import { CreateTaskResultV2Schema, GetTaskResultV2Schema, TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import { z } from 'zod';
import { currentCaller, principalOf } from '../request-context.js';
import { ToModelOutput } from '../tools/index.js';
import { jobRunner, type RunJob, startJob } from '../long-work/job-runner.js';
import { isFinished, type JobRecord } from '../long-work/job-store.js';
import type { GatewayTool } from './gateway-tools.js';
import { stateOfCall } from './input-state.js';
import { clientCapabilitiesOf, executeTool, fittedResult, newToolCall, sdkHandlerForWrapper, type ToolRunOptions } from './register-tools.js';

/** How often a client should poll a task (it may also listen for `notifications/tasks`). */
const POLL_INTERVAL_MS = 1000;

/** What the gateway advertises on every revision: the Tasks extension (2026-07-28). */
export const TASKS_EXTENSION_CAPABILITY = { extensions: { [TASKS_EXTENSION_ID_V2]: {} } };

/** 2025-11-25's tasks capability, which a 2026-07-28 server must not show (the extension replaces it): sessions only. */
export const LEGACY_TASKS_CAPABILITY = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

/** What a task keeps to run its tool (again, after input): the arguments and what the client can be asked. */
interface TaskInput {
  args: unknown;
  clientCapabilities?: ClientCapabilities;
}

/** Whether the request declares the Tasks extension in its per-request capabilities (2026-07-28). */
function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined;
  const extensions = envelope?.[CLIENT_CAPABILITIES_META_KEY]?.extensions as Record<string, unknown> | undefined;
  return extensions?.[TASKS_EXTENSION_ID_V2] !== undefined;
}

/** Whether the request is of the 2026-07-28 revision (it carries the per-request envelope). */
const isModern = (ctx: ServerContext) => ctx.mcpReq.envelope !== undefined;

const taskNotFound = (id: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: task ${id} not found`);

const requireTasksExtension = () =>
  new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID_V2]: {} } } },
    `Missing required client capability: declare the ${TASKS_EXTENSION_ID_V2} extension in the request's client capabilities`,
  );

const iso = (ms: number) => new Date(ms).toISOString();

/** How long from its creation a task may be kept: its TTL after it ends (it is never removed while working). */
const ttlOf = (job: JobRecord) => (isFinished(job.status) ? job.updatedAt - job.createdAt : 0) + job.ttlMs;

/** The JSON-RPC error a failed task carries. */
function rpcErrorOf(job: JobRecord) {
  const error: Record<string, unknown> & { message: string } =
    job.outcome && 'error' in job.outcome ? job.outcome.error : { message: job.statusMessage ?? 'The task failed' };
  const code = typeof error.code === 'number' ? error.code : ProtocolErrorCode.InternalError;
  return { code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
}

const resultOf = (job: JobRecord) => (job.outcome && 'result' in job.outcome ? (job.outcome.result as CallToolResult) : undefined);

/** What a task says of itself on both revisions (they name its TTL and poll interval differently). */
function taskFields(job: JobRecord) {
  return {
    taskId: job.id,
    status: job.status,
    ...(job.statusMessage ? { statusMessage: job.statusMessage } : {}),
    createdAt: iso(job.createdAt),
    lastUpdatedAt: iso(job.updatedAt),
  };
}

/** SEP-2663's `Task` of a job. */
const taskV2 = (job: JobRecord) => ({ ...taskFields(job), ttlMs: ttlOf(job), pollIntervalMs: POLL_INTERVAL_MS });

/** SEP-2663's `DetailedTask`: the task with its input requests, result or error inlined (as `tasks/get` answers). */
export function detailedTaskV2(job: JobRecord) {
  const detail =
    job.status === 'input_required'
      ? { inputRequests: job.inputRequests ?? {} }
      : job.status === 'completed'
        ? { result: { ...resultOf(job), resultType: 'complete' } }
        : job.status === 'failed'
          ? { error: rpcErrorOf(job) }
          : {};
  return { ...taskV2(job), ...detail };
}

/** 2025-11-25's `Task` of a job. */
const taskV1 = (job: JobRecord) => ({ ...taskFields(job), ttl: ttlOf(job), pollInterval: POLL_INTERVAL_MS });

/** How one run of a task goes: its tool with the task's arguments and answers; input it lacks makes it wait. */
function taskRun(tool: GatewayTool, ctx: ServerContext, options: ToolRunOptions): RunJob {
  return async (job) => {
    const { args, clientCapabilities } = job.input as TaskInput;
    const toolCall = newToolCall(tool, args, ctx, { clientCapabilities, answers: job.answers }, options);
    let result: CallToolResult;
    try {
      result = await executeTool(tool, args, toolCall);
    } catch (error) {
      const { code, message, data } = error as ProtocolError;
      return { outcome: { error: { code, message, ...(data === undefined ? {} : { data }) } }, failed: true };
    }
    if (toolCall.pendingInput) return { inputRequests: toolCall.pendingInput, answers: toolCall.answers };
    return { outcome: { result: await fittedResult(result, tool, args, toolCall, options) } };
  };
}

type CallToolHandler = (request: { params: { name: string; arguments?: unknown; task?: unknown } }, ctx: ServerContext) => Promise<unknown>;

/** The arguments as the tool's input schema accepts them, or undefined when it refuses them. */
async function validArguments(tool: GatewayTool, args: unknown): Promise<Record<string, unknown> | undefined> {
  const checked = await tool.inputSchema!['~standard'].validate(args ?? {});
  return checked.issues ? undefined : (checked.value as Record<string, unknown>);
}

/** The params of the tasks/* requests, made once for the process (every server registers its handlers with them). */
const taskIdParams = z.looseObject({ taskId: z.string() });
const cursorParams = z.looseObject({ cursor: z.string().optional() });

/**
 * Serves tasks on `server`: a `tools/call` of a task-capable tool from a client that asks for one (2026-07-28: the
 * Tasks extension in its request's capabilities; 2025-11-25: `params.task`) starts a task and answers its handle,
 * unless the tool says the call answers at once; `tasks/*` read, answer and cancel the caller's tasks. Other calls go
 * to the SDK's own `tools/call`. On the 2025-era lanes (`legacy`) also `tasks/list` and `tasks/result`; a session
 * (`session`) is also sent `notifications/tasks/status` for its tasks, and asked for the input they wait for.
 */
export function serveTasks(
  server: McpServer,
  tools: Map<string, GatewayTool>,
  options: ToolRunOptions,
  { legacy, session = false }: { legacy: boolean; session?: boolean },
): void {
  const callTool = sdkHandlerForWrapper<Parameters<CallToolHandler>[0]>(server, 'tools/call', options.stateCodec);
  if (!callTool) return;
  const owner = () => principalOf(currentCaller());
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = tools.get(request.params.name);
    const legacyTask = (request.params as { task?: unknown }).task;
    const asksForTask = isModern(ctx) ? declaresTasks(ctx) : legacyTask !== undefined;
    if (!tool?.taskSupport) return callTool(request, ctx) as never;
    if (!asksForTask) {
      if (tool.taskSupport === 'required' && isModern(ctx)) throw requireTasksExtension();
      return callTool(request, ctx) as never;
    }
    const args = await validArguments(tool, request.params.arguments);
    // Arguments the tool refuses make no task: the SDK's call answers them as it answers any call (an error result
    // naming the problems, which a model can correct).
    if (!args) return callTool(request, ctx) as never;
    let answers: Record<string, unknown>;
    try {
      // Answers of earlier rounds (input gathered within the call before it became a task), and of this one.
      answers = { ...stateOfCall(ctx, tool.name, args)?.answers, ...ctx.mcpReq.inputResponses };
    } catch {
      return callTool(request, ctx) as never; // a requestState of another call: the SDK's call answers why
    }
    if (tool.answersAtOnce?.(args, answers)) return callTool(request, ctx) as never;
    const input: TaskInput = { args, clientCapabilities: clientCapabilitiesOf(ctx, server) };
    let job: JobRecord;
    try {
      await tool.checkFirst?.(args);
      job = await startJob({ owner: owner(), door: 'mcp', tool: tool.name, input, answers }, taskRun(tool, ctx, options));
    } catch (error) {
      // Refused by the tool's own check, or too many tasks of the caller or of this instance: the tool's error result,
      // saying why (as a refused call).
      return (await ToModelOutput.MCP(error as Error, tool, null)) as never;
    }
    if (session) statusNotices.follow(job);
    if (isModern(ctx)) return { ...CreateTaskResultV2Schema.parse({ resultType: 'task', ...taskV2(job) }), content: [] } as never;
    return { ...CreateTaskResultV1Schema.parse({ task: taskV1(job) }), content: [] } as never;
  });

  const statusNotices = sessionStatusNotices(server);

  /** The caller's job behind a task id, or -32602 (unknown, another caller's, expired, or a REST job). */
  const taskOf = async (taskId: string) => {
    const job = await jobRunner().get(taskId, owner());
    if (!job || job.door !== 'mcp') throw taskNotFound(taskId);
    return job;
  };
  const gated = (ctx: ServerContext) => {
    if (isModern(ctx) && !declaresTasks(ctx)) throw requireTasksExtension();
  };
  server.server.setRequestHandler('tasks/get', { params: taskIdParams }, async ({ taskId }, ctx) => {
    gated(ctx);
    const job = await taskOf(taskId);
    if (!isModern(ctx)) return GetTaskResultV1Schema.parse(taskV1(job)) as never;
    return GetTaskResultV2Schema.parse({ resultType: 'complete', ...detailedTaskV2(job) }) as never;
  });

  server.server.setRequestHandler('tasks/update', { params: taskIdParams }, async ({ taskId }, ctx) => {
    gated(ctx);
    const job = await taskOf(taskId);
    if (job.status !== 'input_required') {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} is not waiting for input (it is ${job.status})`);
    }
    const outstanding = job.inputRequests ?? {};
    const given = Object.entries(ctx.mcpReq.inputResponses ?? {}).filter(([key]) => Object.hasOwn(outstanding, key));
    const answers = { ...job.answers, ...Object.fromEntries(given) };
    const waiting = Object.fromEntries(Object.entries(outstanding).filter(([key]) => !Object.hasOwn(answers, key)));
    const tool = tools.get(job.tool);
    if (Object.keys(waiting).length || !tool) await jobRunner().answerPartly(taskId, owner(), waiting, answers);
    else await jobRunner().resume(taskId, owner(), answers, taskRun(tool, ctx, options));
    return { resultType: 'complete' } as never;
  });

  server.server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async ({ taskId }, ctx) => {
    gated(ctx);
    await taskOf(taskId);
    const attempt = await jobRunner().cancel(taskId, owner());
    if (!attempt) throw taskNotFound(taskId);
    if (isModern(ctx)) return { resultType: 'complete' } as never;
    if (!attempt.cancelled) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task ${taskId}: it has already ended (${attempt.job.status})`);
    }
    return GetTaskResultV1Schema.parse(taskV1(attempt.job)) as never;
  });

  if (!legacy) return; // 2026-07-28 has no tasks/list nor tasks/result (-32601)
  server.server.setRequestHandler('tasks/list', { params: cursorParams }, async () => {
    const tasks = (await jobRunner().list(owner(), 'mcp')).map(taskV1);
    return ListTasksResultV1Schema.parse({ tasks }) as never;
  });
  server.server.setRequestHandler('tasks/result', { params: taskIdParams }, async ({ taskId }, ctx) => {
    for (;;) {
      const job = await taskOf(taskId);
      if (job.status === 'completed') {
        const result = resultOf(job)!;
        return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } } as never;
      }
      if (job.status === 'failed') {
        const { code, message, data } = rpcErrorOf(job);
        throw new ProtocolError(code, message, data);
      }
      if (job.status === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${taskId} was cancelled`);
      const tool = tools.get(job.tool);
      if (job.status === 'input_required' && session && tool) await askForInput(job, tool, ctx, options);
      else await nextChangeOf(taskId, ctx.mcpReq.signal);
    }
  });
}

/**
 * A 2025-era session's task waits for input: the session's client is asked each request (with the task named in
 * `_meta`, as 2025-11-25 says), and the task runs again with the answers.
 */
async function askForInput(job: JobRecord, tool: GatewayTool, ctx: ServerContext, options: ToolRunOptions): Promise<void> {
  const answers: Record<string, unknown> = { ...job.answers };
  for (const [key, request] of Object.entries(job.inputRequests ?? {})) {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const _meta = { ...(params?._meta as object | undefined), [RELATED_TASK_META_KEY]: { taskId: job.id } };
    answers[key] = await ctx.mcpReq.send({ method, params: { ...params, _meta } } as never);
  }
  await jobRunner().resume(job.id, job.owner, answers, taskRun(tool, ctx, options));
}

/** Resolves when job `id` changes (here or, over PostgreSQL, anywhere), after a second at most, or when `signal` aborts. */
function nextChangeOf(id: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stop();
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const stop = jobRunner().onChange((changed) => changed === id && done());
    const timer = setTimeout(done, POLL_INTERVAL_MS);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * `notifications/tasks/status` for the tasks a 2025-era session started, sent on the session (its standalone stream)
 * whenever one changes, until it ends or the session closes.
 */
function sessionStatusNotices(server: McpServer) {
  const followed = new Map<string, string>();
  let stop: (() => void) | undefined;
  const send = async (id: string) => {
    const owner = followed.get(id);
    if (owner === undefined) return;
    if (!server.isConnected()) {
      followed.clear();
      stop?.();
      stop = undefined;
      return;
    }
    const job = await jobRunner().get(id, owner);
    if (!job || isFinished(job.status)) followed.delete(id);
    if (job) await server.server.notification({ method: 'notifications/tasks/status', params: taskV1(job) } as never);
  };
  return {
    follow(job: JobRecord): void {
      followed.set(job.id, job.owner);
      stop ??= jobRunner().onChange((id) => {
        send(id).catch((error: Error) => console.error(`[gateway] A task status could not be sent to a session: ${error.message}`));
      });
    },
  };
}

