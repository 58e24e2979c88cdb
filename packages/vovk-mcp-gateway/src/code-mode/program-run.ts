// One run of a code-mode program on the gateway's side: each `tools.*` call it makes runs as a tool call of the same
// caller (scopes, rate limit, confirmation, progress, cancellation, log line, span) and is written in its journal.
import 'server-only';
import type { CallToolResult, InputRequest, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { missingScopes } from '../auth/scopes.js';
import { type Catalogue, forModel, type Selected } from '../catalogue/catalogue.js';
import { tracedToolRun } from '../catalogue/traced-run.js';
import { takeRateAllowance, tooManyRequests } from '../http/guards.js';
import { logToolCall } from '../http/request-log.js';
import { inputDigest } from '../mcp/input-state.js';
import { runToolCall, type ServedTool, type ToolRunOptions } from '../mcp/register-tools.js';
import { validated } from '../tools/standard-tool.js';
import { currentCaller, requestContext, type ToolCall } from '../request-context.js';
import { EXECUTE } from '../shared/catalogue-names.js';

/** What became of one call: the value's JSON the program got, or the message of the Error it got. */
const OutcomeSchema = z.union([z.object({ ok: z.literal(true), json: z.string() }), z.object({ ok: z.literal(false), message: z.string() })]);
type Outcome = z.infer<typeof OutcomeSchema>;

/** A call the program made, as the journal keeps it: which tool, a digest of its arguments, how long, what it gave. */
const JournalEntrySchema = z.object({ tool: z.string(), args: z.string(), ms: z.number(), outcome: OutcomeSchema });

/**
 * The journal of a program across the rounds of an input-required `execute` (carried in its signed requestState): its
 * seed and clock, and every call it made by number. A program run again after the client's answer gets the recorded
 * outcome of each call it makes again — a write never runs twice — and runs live only the calls past them.
 */
const JournalSchema = z.object({ seed: z.number().int(), now: z.number(), calls: z.record(z.string(), JournalEntrySchema) });
export type Journal = z.infer<typeof JournalSchema>;

/** The journal an earlier round carried, or a new one (a fresh seed and clock). */
export function journalOf(carry: unknown): Journal {
  const carried = JournalSchema.safeParse(carry);
  if (carried.success) return carried.data;
  return { seed: Math.floor(Math.random() * 2 ** 31), now: Date.now(), calls: {} };
}

/** One inner call as `execute` reports it: the tool, how long it took, and its error if it failed. */
export interface CallReport {
  tool: string;
  ms: number;
  ok: boolean;
  error?: string;
}

/** The key of an input request of call number `index`, as the client sees it in `execute`'s input-required result. */
const answerKey = (index: number, key: string) => `call${index}.${key}`;

/** The text of an error result, which the program's Error carries. */
const messageOf = (result: CallToolResult) =>
  (result.content ?? [])
    .flatMap((item) => (item.type === 'text' ? [item.text] : []))
    .join('\n') || 'The tool failed';

/**
 * What the program gets from a result: its structuredContent (an array result — MCP's `{ items }` — as the array), a
 * text result as its text, media as `{ type, mimeType, data }` (several items: an array of them); an error result
 * throws an Error with its message.
 */
function programValueOf(result: CallToolResult): Outcome {
  if (result.isError) return { ok: false, message: messageOf(result) };
  const content = result.content ?? [];
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  if (structured) {
    const first = content[0];
    const isArray = Object.keys(structured).length === 1 && Array.isArray(structured.items) && first?.type === 'text' && first.text.trimStart().startsWith('[');
    return { ok: true, json: JSON.stringify(isArray ? structured.items : structured) };
  }
  const values = content.map((item) =>
    item.type === 'text' ? item.text : item.type === 'image' || item.type === 'audio' ? { type: item.type, mimeType: item.mimeType, data: item.data } : item,
  );
  return { ok: true, json: JSON.stringify(values.length === 1 ? values[0] : values) };
}

/** The refusal of a call that cannot run: the program gets it as an Error, as it gets a failed call's. */
class CallRefused extends Error {}

/** Thrown to the program once its run waits for the client's answer: no call runs after that point. */
const SUSPENDED = 'This program waits for the client’s answer to an earlier call: it runs again once it comes';

export interface ProgramRunOptions {
  catalogue: Catalogue;
  view: Selected;
  run: ToolRunOptions;
  /** The `execute` call the program runs in (its MCP context, answers, what its client can be asked). */
  outer: ToolCall;
  journal: Journal;
  /** The largest arguments a call may take, as a direct call's body (MCP_MAX_BODY_BYTES). */
  maxArgumentBytes: number;
}

export class ProgramRun {
  /** Each call the program made, in order, as `execute` reports them. */
  readonly reports: CallReport[] = [];
  /** What the calls that wait for the client ask it (keys numbered by call), once one does. */
  pendingInput?: Record<string, InputRequest>;
  readonly #inFlight = new Set<Promise<unknown>>();
  /** Aborts the calls still running when the program is stopped (cancelled, past a limit). */
  readonly #abort = new AbortController();
  #count = 0;
  #progressStep = 0;

  constructor(private readonly options: ProgramRunOptions) {}

  /** Runs `tools.<tool>(args)` of the program: the value's JSON, or throws the Error the program gets. */
  call = async (tool: string, argsJson: string): Promise<string> => {
    const index = (this.#count += 1);
    const args = inputDigest(argsJson);
    const recorded = this.options.journal.calls[index];
    if (recorded) {
      if (recorded.tool !== tool || recorded.args !== args) {
        this.stop();
        throw new Error(
          `This program took another path when it ran again after the client's answer: call ${index} was ${recorded.tool} with other arguments, now ${tool}. A program must make the same calls each time it runs.`,
        );
      }
      return this.#report(tool, recorded.ms, recorded.outcome);
    }
    if (this.pendingInput) throw new Error(SUSPENDED);
    const startedAt = performance.now();
    const running = this.#live(tool, index, argsJson);
    this.#inFlight.add(running);
    try {
      const outcome = await running;
      if (outcome === undefined) throw new Error(SUSPENDED);
      const ms = Math.round((performance.now() - startedAt) * 10) / 10;
      this.options.journal.calls[index] = { tool, args, ms, outcome };
      this.#progress(outcome.ok ? `${tool}: done in ${ms} ms` : `${tool}: failed`);
      return this.#report(tool, ms, outcome);
    } finally {
      this.#inFlight.delete(running);
    }
  };

  /** Ends the calls still running (the program was cancelled or passed a limit). */
  stop(): void {
    this.#abort.abort(new Error('The program was stopped'));
  }

  /** Resolves when no call of the program is running any more (each one done is in the journal). */
  async settled(): Promise<void> {
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  #report(tool: string, ms: number, outcome: Outcome): string {
    this.reports.push({ tool, ms, ok: outcome.ok, ...(!outcome.ok && { error: outcome.message }) });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.json;
  }

  /** Runs one call live: its outcome, or undefined when it waits for the client (its requests are then pending). */
  async #live(name: string, index: number, argsJson: string): Promise<Outcome | undefined> {
    const { catalogue, view } = this.options;
    const tool = view.selected.get(name) ?? view.aliases.get(name);
    if (!tool) return { ok: false, message: catalogue.refusal(name, view) ?? `Unknown tool ${name}: find this server's tools with search_tools` };
    if (!forModel(tool)) return { ok: false, message: `Tool ${name} is called by its MCP App only (_meta.ui.visibility): a program cannot call it` };
    const startedAt = performance.now();
    this.#progress(`${name}: running`);
    const outcome = await tracedToolRun(name, EXECUTE, () => this.#run(tool, index, argsJson), (result) => result?.ok === false);
    if (outcome) logToolCall({ tool: name, through: EXECUTE, ok: outcome.ok, ms: performance.now() - startedAt }, requestContext());
    return outcome;
  }

  async #run(tool: ServedTool, index: number, argsJson: string): Promise<Outcome | undefined> {
    try {
      const input = await this.#validated(tool, argsJson);
      const { outer, run } = this.options;
      const call = { clientCapabilities: outer.clientCapabilities, answers: this.#answersOf(index) };
      const { result, toolCall } = await runToolCall(tool, input, this.#innerContext(tool.name), call, run);
      if (toolCall.pendingInput) {
        const asked = Object.entries(toolCall.pendingInput).map(([key, request]) => [answerKey(index, key), request]);
        this.pendingInput = { ...this.pendingInput, ...Object.fromEntries(asked) };
        this.#progress(`${tool.name}: waiting for the client's answer`);
        return undefined;
      }
      return programValueOf(result);
    } catch (error) {
      if (error instanceof CallRefused) return { ok: false, message: error.message };
      throw error;
    }
  }

  /** The call's arguments as the tool's schema reads them; refused, as a direct call is, when they do not fit. */
  async #validated(tool: ServedTool, argsJson: string): Promise<unknown> {
    const { maxArgumentBytes } = this.options;
    if (Buffer.byteLength(argsJson) > maxArgumentBytes) {
      throw new CallRefused(`The arguments of ${tool.name} are larger than a request may be (MCP_MAX_BODY_BYTES = ${maxArgumentBytes} bytes)`);
    }
    const missing = missingScopes(currentCaller()?.scopes, tool.scopes);
    if (missing.length) throw new CallRefused(`Tool ${tool.name} needs the scope ${missing.join(' ')}, which this caller's token does not have (insufficient_scope)`);
    const request = requestContext()?.request;
    const retryAfter = request ? takeRateAllowance(request) : 0;
    if (retryAfter) throw new CallRefused(tooManyRequests(retryAfter));
    const checked = await validated(tool.inputSchema, JSON.parse(argsJson));
    if ('reason' in checked) throw new CallRefused(`Invalid arguments for tool ${tool.name}: ${checked.reason}`);
    return checked.value;
  }

  /** The answers the client gave to call number `index`'s requests, under the keys the call asked them by. */
  #answersOf(index: number): Record<string, unknown> {
    const prefix = answerKey(index, '');
    return Object.fromEntries(
      Object.entries(this.options.outer.answers).flatMap(([key, answer]) => (key.startsWith(prefix) ? [[key.slice(prefix.length), answer]] : [])),
    );
  }

  /** The MCP context of an inner call: `execute`'s, cancelled with it (or when the program stops); its progress becomes `execute`'s. */
  #innerContext(tool: string): ServerContext {
    const { mcp } = this.options.outer;
    const notify: ServerContext['mcpReq']['notify'] = (notification) => {
      if (notification.method !== 'notifications/progress') return mcp.mcpReq.notify(notification);
      const { progress, total, message } = notification.params as { progress: number; total?: number; message?: string };
      this.#progress(`${tool}: ${message ?? (total === undefined ? progress : `${progress}/${total}`)}`);
      return Promise.resolve();
    };
    return { ...mcp, mcpReq: { ...mcp.mcpReq, signal: AbortSignal.any([mcp.mcpReq.signal, this.#abort.signal]), notify } };
  }

  /** One progress notification of `execute` (when its call asked for progress): a step further, saying what happened. */
  #progress(message: string): void {
    const { mcp } = this.options.outer;
    const progressToken = mcp.mcpReq._meta?.progressToken;
    if (progressToken === undefined) return;
    this.#progressStep += 1;
    mcp.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: this.#progressStep, message } }).catch(() => {});
  }
}
