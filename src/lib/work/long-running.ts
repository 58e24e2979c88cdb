// `@longRunning(taskSupport)`: a procedure declares, next to its handler, that it may run long (MCP tasks, REST jobs).
import 'server-only';
import { createDecorator, type VovkSchema } from 'vovk';

/**
 * Whether callers may (`optional`) or must (`required`) run the procedure as a task, as MCP 2025-11-25's
 * `execution.taskSupport` says; a procedure without the decorator is `forbidden` (it always answers within its request).
 */
export type TaskSupport = 'optional' | 'required';

/** `@operation` field where `@longRunning` records the procedure's task support (OpenAPI readers see it too). */
export const TASK_SUPPORT_KEY = 'x-task-support';

type HandlerSchema = VovkSchema['segments'][string]['controllers'][string]['handlers'][string] | null;

/**
 * Declares that a procedure may run long: `@longRunning() @post('import') static importTasks = …`. Over MCP, a client
 * that declares the tasks extension gets a task handle (`required`: it must declare it); over REST,
 * `Prefer: respond-async` gives `202 Accepted` and a job at `/api/jobs/{id}`. Inside, the procedure reports progress
 * with `reportProgress()` and stops on `workSignal()`.
 */
export function longRunning(taskSupport: TaskSupport = 'optional') {
  return createDecorator(
    (_req, next) => next(),
    () => (handlerSchema: HandlerSchema) => ({
      ...handlerSchema,
      operationObject: { ...handlerSchema?.operationObject, [TASK_SUPPORT_KEY]: taskSupport },
    }),
  )();
}
