// `@longRunning(taskSupport)`: a procedure declares, next to its handler, that it may run long (MCP tasks, REST jobs).
import 'server-only';
import { createDecorator, type VovkSchema } from 'vovk';
import { isJson } from '../http/body-limit.js';
import { currentToolCall, requestContext } from '../request-context.js';
import { prefersAsync, startRestJob } from './rest-jobs.js';

/**
 * Whether callers may (`optional`) or must (`required`) run the procedure as a task, as MCP 2025-11-25's
 * `execution.taskSupport` says; a procedure without the decorator is `forbidden` (it always answers within its request).
 */
export type TaskSupport = 'optional' | 'required';

/** `@operation` field where `@longRunning` records the procedure's task support (OpenAPI readers see it too). */
export const TASK_SUPPORT_KEY = 'x-task-support';

type HandlerSchema = VovkSchema['segments'][string]['controllers'][string]['handlers'][string] | null;

/** A call's input as the tool takes it: `{ body?, query?, params? }`, each as the procedure's schemas accept it. */
type CallArgs = Record<string, unknown>;

/**
 * Whether an MCP call of a task-capable tool answers at once, within its request, even for a client that declared the
 * tasks extension: given the tool's arguments and the caller's input answers so far. Without it every such call is a task.
 */
type AnswersAtOnce = (args: CallArgs, answers: Record<string, unknown>) => boolean;

/**
 * A check of a call's valid input before it becomes a REST job or an MCP task, for what the schemas cannot say (e.g.
 * a URL the server does not allow): it throws an HttpException to refuse the call at once, as the synchronous call
 * would refuse it, so bad input never turns into accepted work that fails.
 */
type CheckFirst = (args: CallArgs) => void | Promise<void>;

/** What `@longRunning` says of a procedure's calls, beyond its task support. */
export interface CallRules {
  /** Calls that are quick enough to answer within their request (e.g. an import of rows given inline). @default none */
  answersAtOnce?: AnswersAtOnce;
  checkFirst?: CheckFirst;
}

export interface LongRunningOptions extends CallRules {
  /** @default 'optional' */
  taskSupport?: TaskSupport;
}

/** The call rules of decorated procedures, by controller and handler name (functions stay out of OpenAPI). */
const callRules = new WeakMap<object, Map<string, CallRules>>();

/** The call rules a procedure declared with `@longRunning` (none without it). */
export function callRulesOf(controller: object, handlerName: string): CallRules {
  return callRules.get(controller)?.get(handlerName) ?? {};
}

/** What `procedure({ … })` keeps of its validation (vovk's `definition`), as far as checking a request's input goes. */
interface ProcedureInput {
  body?: unknown;
  query?: unknown;
  params?: unknown;
  disableServerSideValidation?: boolean | string[];
  validate?: (data: unknown, model: unknown, meta: { validationType: string; req: unknown }) => Promise<unknown>;
}

type RestRequest = Request & { vovk: { query(): unknown; params(): unknown } };

/**
 * A REST request's input, checked the way the procedure itself checks it (the same 400), before a job is made for it:
 * each of body, query and params the procedure has a schema for (the others are not read, as vovk does not read them).
 * The body is read from a copy (the REST door has already buffered it, and refused malformed JSON): the procedure
 * reads its own. Undefined when the body is not JSON: the procedure answers that itself (415).
 */
async function checkedInput(req: RestRequest, input: ProcedureInput | undefined): Promise<CallArgs | undefined> {
  const { validate, disableServerSideValidation: off } = input ?? {};
  if (input?.body !== undefined && !isJson(req)) return undefined;
  const given = {
    body: async () => {
      const text = await req.clone().text();
      return text ? JSON.parse(text) : null;
    },
    query: async () => req.vovk.query(),
    params: async () => req.vovk.params(),
  };
  const args: CallArgs = {};
  for (const key of ['body', 'query', 'params'] as const) {
    const model = input?.[key];
    if (model === undefined) continue;
    const value = await given[key]();
    const checked = validate && off !== true && !(Array.isArray(off) && off.includes(key));
    args[key] = checked ? ((await validate(value, model, { validationType: key, req })) ?? value) : value;
  }
  return args;
}

/**
 * Declares that a procedure may run long, below its HTTP method's decorator (as every wrapping decorator):
 * `@post('import') @longRunning({ answersAtOnce: (args) => !args.body?.url }) static importTasks = …`. Over MCP, a client
 * that declares the tasks extension gets a task handle (`required`: it must declare it); over REST,
 * `Prefer: respond-async` gives `202 Accepted` and a job at `/api/jobs/{id}` once the input is valid and `checkFirst`
 * passed (else the synchronous call's error, at once). Inside, the procedure reports progress with `reportProgress()`
 * and stops on `workSignal()`.
 */
export function longRunning({ taskSupport = 'optional', ...rules }: LongRunningOptions = {}) {
  /** The decorated procedure's validation, found when the decorator is applied. */
  let input: ProcedureInput | undefined;
  return createDecorator(
    // REST with `Prefer: respond-async`: a job (MCP turns the call into a task before the procedure runs).
    async (req, next) => {
      if (currentToolCall() || requestContext()?.work || !prefersAsync(req)) return next();
      const args = await checkedInput(req, input);
      if (args) await rules.checkFirst?.(args);
      return startRestJob(req, next);
    },
    function (this: object) {
      return (handlerSchema: HandlerSchema, { handlerName }: { handlerName: string }) => {
        const decorated = (this as Record<string, { _sourceMethod?: { definition?: ProcedureInput } }>)[handlerName];
        input = decorated?._sourceMethod?.definition;
        callRules.set(this, (callRules.get(this) ?? new Map()).set(handlerName, rules));
        return { ...handlerSchema, operationObject: { ...handlerSchema?.operationObject, [TASK_SUPPORT_KEY]: taskSupport } };
      };
    },
  )();
}
