// Lets any procedure ask the MCP client for input (elicitation, sampling, roots) and confirm destructive actions.
import 'server-only';
import {
  type ClientCapabilities,
  type InputRequest,
  type InputResponseView,
  inputRequired,
  inputResponse,
} from '@modelcontextprotocol/server';
import { createDecorator, HttpException, HttpStatus, type VovkRequest, type VovkSchema } from 'vovk';
import { currentToolCall } from '../request-context.js';

/**
 * Builders of what a procedure may ask for: `inputRequest.elicit({ message, requestedSchema })` (a form),
 * `inputRequest.createMessage({ messages, maxTokens })` (sampling), `inputRequest.listRoots()`.
 */
export const inputRequest = {
  elicit: inputRequired.elicit,
  createMessage: inputRequired.createMessage,
  listRoots: inputRequired.listRoots,
};

/** The client's answer to one request. */
export type ClientAnswer = Exclude<InputResponseView, { kind: 'missing' }>;

/**
 * Thrown by {@link askClient} when the call needs answers it does not have yet. The gateway answers the tool call
 * with them as an `input_required` result (2026-07-28) or asks over the session (2025 era); on REST it is a 400.
 */
export class InputRequiredSignal extends HttpException {
  constructor(readonly inputRequests: Record<string, InputRequest>) {
    super(
      HttpStatus.BAD_REQUEST,
      `This call needs input from its caller (${Object.keys(inputRequests).join(', ')}), which only an MCP client can give: call it as an MCP tool`,
    );
  }
}

/** The user declined (or cancelled) a confirmation: the action did not happen. */
export class ActionNotConfirmed extends HttpException {
  constructor(question: string, action: 'decline' | 'cancel') {
    const answer = action === 'decline' ? 'declined' : 'cancelled';
    super(HttpStatus.CONFLICT, `Not done: the user ${answer} the confirmation, so nothing was changed. The question was: ${question}`);
  }
}

const KIND_OF_METHOD = { 'elicitation/create': 'elicit', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' } as const;

/**
 * Asks the MCP client of the current tool call for input, several requests at once if need be, and returns the
 * answers by key. A call that does not have them yet is suspended: this throws, the gateway sends the requests, and
 * the client retries the call with the answers, which runs the procedure again from the start (so ask before acting;
 * use a new key for each question). Answers of earlier rounds stay available under their keys.
 */
export function askClient<Key extends string>(requests: Record<Key, InputRequest>): Record<Key, ClientAnswer> {
  const call = currentToolCall();
  const answers = {} as Record<Key, ClientAnswer>;
  const missing: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(requests) as [Key, InputRequest][]) {
    const answer = inputResponse(call?.answers, key);
    if (answer.kind === KIND_OF_METHOD[request.method as keyof typeof KIND_OF_METHOD]) answers[key] = answer as ClientAnswer;
    else missing[key] = request;
  }
  if (!Object.keys(missing).length) return answers;
  if (call) call.pendingInput = missing;
  throw new InputRequiredSignal(missing);
}

/** Whether the client of the current tool call declared it can be asked for this (false on REST and unknown clients). */
export function clientCan(kind: 'elicitation' | 'sampling' | 'roots'): boolean {
  const capabilities: ClientCapabilities | undefined = currentToolCall()?.clientCapabilities;
  return capabilities?.[kind] !== undefined;
}

/** The form of a confirmation: one yes/no field, checked. */
const CONFIRMATION_FORM = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const, title: 'Yes, go ahead', default: true } },
  required: ['confirm'],
};

/**
 * Asks the user of an MCP tool call to confirm `question` before the procedure acts; returns when confirmed and
 * throws {@link ActionNotConfirmed} when declined or cancelled. Nothing is asked on REST, when confirmations are off
 * (MCP_CONFIRM_DESTRUCTIVE=0) or when the client cannot be asked (no elicitation capability): the call goes ahead.
 */
export function confirmAction(question: string): void {
  const call = currentToolCall();
  if (!call?.confirmDestructive || !clientCan('elicitation')) return;
  const { confirmation } = askClient({ confirmation: inputRequest.elicit({ message: question, requestedSchema: CONFIRMATION_FORM }) });
  if (confirmation.kind !== 'elicit') return;
  if (confirmation.action === 'accept' && confirmation.content?.confirm !== false) {
    call.confirmed = true;
    return;
  }
  throw new ActionNotConfirmed(question, confirmation.action === 'accept' ? 'decline' : confirmation.action);
}

/** `@operation` field where `@confirm` records that a procedure asks for its own confirmation. */
export const CONFIRM_KEY = 'x-confirm';

type HandlerSchema = VovkSchema['segments'][string]['controllers'][string]['handlers'][string] | null;

/**
 * Asks MCP callers to confirm before the procedure runs, with the question `describe` makes of the request — naming
 * what will change, e.g. `@confirm(async (req) => \`Delete the task “${(await getTask(req.vovk.params().id)).title}”?\`)`.
 * Tools annotated `destructiveHint: true` without it are confirmed by the gateway with a generic question. REST is
 * unchanged.
 */
export function confirm(describe: (req: VovkRequest<unknown, unknown, Record<string, string>>) => string | Promise<string>) {
  return createDecorator(
    async (req, next) => {
      if (currentToolCall()) confirmAction(await describe(req as VovkRequest<unknown, unknown, Record<string, string>>));
      return next();
    },
    () => (handlerSchema: HandlerSchema) => ({
      ...handlerSchema,
      operationObject: { ...handlerSchema?.operationObject, [CONFIRM_KEY]: true },
    }),
  )();
}
