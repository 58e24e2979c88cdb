// `@longRunning(taskSupport)`: a procedure declares, next to its handler, that it may run long (MCP tasks, REST jobs).
import 'server-only';
import { createDecorator, type VovkSchema } from 'vovk';
import { currentToolCall, requestContext } from '@/lib/request-context';
import { prefersAsync, startRestJob } from './rest-jobs';

/**
 * Whether callers may (`optional`) or must (`required`) run the procedure as a task, as MCP 2025-11-25's
 * `execution.taskSupport` says; a procedure without the decorator is `forbidden` (it always answers within its request).
 */
export type TaskSupport = 'optional' | 'required';

/** `@operation` field where `@longRunning` records the procedure's task support (OpenAPI readers see it too). */
export const TASK_SUPPORT_KEY = 'x-task-support';

type HandlerSchema = VovkSchema['segments'][string]['controllers'][string]['handlers'][string] | null;

/**
 * Whether an MCP call of a task-capable tool answers at once, within its request, even for a client that declared the
 * tasks extension: given the tool's arguments and the caller's input answers so far. Without it every such call is a task.
 */
export type AnswersAtOnce = (args: Record<string, unknown>, answers: Record<string, unknown>) => boolean;

export interface LongRunningOptions {
  /** @default 'optional' */
  taskSupport?: TaskSupport;
  /** Calls that are quick enough to answer within their request (e.g. an import of rows given inline). @default none */
  answersAtOnce?: AnswersAtOnce;
}

/** The `answersAtOnce` rules of decorated procedures, by controller and handler name (functions stay out of OpenAPI). */
const quickCalls = new WeakMap<object, Map<string, AnswersAtOnce>>();

/** The `answersAtOnce` rule a procedure declared with `@longRunning`, if any. */
export function answersAtOnceOf(controller: object, handlerName: string): AnswersAtOnce | undefined {
  return quickCalls.get(controller)?.get(handlerName);
}

/**
 * Declares that a procedure may run long, below its HTTP method's decorator (as every wrapping decorator):
 * `@post('import') @longRunning({ answersAtOnce: (args) => !args.body?.url }) static importTasks = …`. Over MCP, a client
 * that declares the tasks extension gets a task handle (`required`: it must declare it); over REST,
 * `Prefer: respond-async` gives `202 Accepted` and a job at `/api/jobs/{id}`. Inside, the procedure reports progress
 * with `reportProgress()` and stops on `workSignal()`.
 */
export function longRunning({ taskSupport = 'optional', answersAtOnce }: LongRunningOptions = {}) {
  return createDecorator(
    // REST with `Prefer: respond-async`: a job (MCP turns the call into a task before the procedure runs).
    (req, next) => (!currentToolCall() && !requestContext()?.work && prefersAsync(req) ? startRestJob(req, next) : next()),
    function (this: object) {
      return (handlerSchema: HandlerSchema, { handlerName }: { handlerName: string }) => {
        if (answersAtOnce) quickCalls.set(this, (quickCalls.get(this) ?? new Map()).set(handlerName, answersAtOnce));
        return { ...handlerSchema, operationObject: { ...handlerSchema?.operationObject, [TASK_SUPPORT_KEY]: taskSupport } };
      };
    },
  )();
}
