// The code console's logic: the typed signatures of the listed tools by toolset, an example program and a call's
// template from their schemas, a program's inner calls as `execute`'s progress messages tell them, and its answer.
import 'client-only';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { IDENTIFIER, isSchema, toolSignature, valueSchemaOf } from '../../shared/tool-signature.js';
import type { CallProgress } from './tool-run.js';
import { groupByToolset } from './toolsets.js';

type Schema = Record<string, unknown>;


export interface ToolsetSignatures {
  name: string;
  signatures: { tool: string; signature: string }[];
}

/** `tools.<name>(args): Promise<value>` of each tool, under its toolset as the tool list groups them. */
export const signaturesByToolset = (tools: readonly Tool[]): ToolsetSignatures[] =>
  groupByToolset(tools).map((group) => ({
    name: group.name,
    signatures: group.tools.map((tool) => ({ tool: tool.name, signature: toolSignature(tool) })),
  }));


/** A value written as a JavaScript literal (keys unquoted where they may be), on one line. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (!isSchema(value)) return JSON.stringify(value) ?? 'undefined';
  const entries = Object.entries(value).map(
    ([key, item]) => `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${literal(item)}`,
  );
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}

/**
 * A value that fits `schema` to start from: its default or first option, else an empty one of its type (an object with
 * its required properties only).
 */
function placeholder(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > 6) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) return placeholder(options[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return '';
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  if (type !== 'object' && !isSchema(schema.properties)) return null;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key): key is string => key in properties)
    : [];
  return Object.fromEntries(required.map((key) => [key, placeholder(properties[key], depth + 1)]));
}

/** A line that calls `tool`, its required arguments as placeholders: `… tools.getUser({ params: { id: 0 } });` */
export function callTemplate(tool: Tool): string {
  const args = placeholder(tool.inputSchema);
  const written = isSchema(args) && Object.keys(args).length ? literal(args) : '';
  return `const result = await tools.${tool.name}(${written});`;
}

const takesNoArguments = (tool: Tool) => !tool.inputSchema.required?.length;

/** The item schema of a tool whose value is an array, if it is one. */
function arrayItemsOf(tool: Tool): Schema | undefined {
  const value = valueSchemaOf(tool.outputSchema);
  return value?.type === 'array' && isSchema(value.items) ? value.items : undefined;
}

/** Which field of a listed item names it: `name` or `title` when there is one, else its first string field. */
function namingField(items: Schema): string | undefined {
  const properties = isSchema(items.properties) ? items.properties : {};
  const strings = Object.keys(properties).filter(
    (key) => isSchema(properties[key]) && properties[key].type === 'string',
  );
  return strings.find((key) => key === 'name') ?? strings.find((key) => key === 'title') ?? strings[0];
}

const PREAMBLE = [
  '// Each `await tools.<name>(args)` is a real tool call (its confirmation is asked as for a direct call);',
  '// what the program returns comes back, with what it printed with console.log.',
];

/**
 * A short program over the listed tools: the first read-only tool that lists things with no arguments, and the name
 * of each thing it lists; else a call of the first tool that takes no arguments.
 */
export function exampleProgram(tools: readonly Tool[]): string {
  const lister = tools.find((tool) => tool.annotations?.readOnlyHint && takesNoArguments(tool) && arrayItemsOf(tool));
  if (lister) {
    const field = namingField(arrayItemsOf(lister)!);
    return [
      ...PREAMBLE,
      `const items = await tools.${lister.name}();`,
      'console.log(`${items.length} found`);',
      field ? `return items.map((item) => item.${field});` : 'return items;',
      '',
    ].join('\n');
  }
  const simple = tools.find((tool) => tool.annotations?.readOnlyHint && takesNoArguments(tool));
  return [...PREAMBLE, simple ? `return await tools.${simple.name}();` : "return 'hello';", ''].join('\n');
}

/** How far an inner call got: waiting means it asked the user, stopped that the program ended while it ran. */
type InnerCallState = 'running' | 'waiting' | 'done' | 'failed' | 'stopped';

export interface InnerCall {
  tool: string;
  state: InnerCallState;
  /** How long it took, once done (or failed, in the final report). */
  ms?: number;
  /** Its own last progress message while it runs; its error, once it failed (final report). */
  message?: string;
}

/** `execute`'s progress messages: `<tool>: running`, `…: done in <ms> ms`, `…: failed`, `…: waiting for the client's answer`, `…: <its progress>`. */
const STEP = /^([^\s:]+): (.*)$/s;
const DONE = /^done in (\d+(?:\.\d+)?) ms$/;
/** What `execute` says of a call that asked the client for input (a confirmation): it waits for the answer. */
const WAITING = "waiting for the client's answer";
/** The client's own progress while it gets the user's answers to an input-required result, before it calls again. */
const ASKING = /^Fulfilling input required\b/;

const replaced = (calls: readonly InnerCall[], index: number, call: InnerCall) =>
  calls.map((each, at) => (at === index ? call : each));

/**
 * The inner calls after one progress notification of `execute`. The program runs again after each answer to an
 * input request (the calls already made are replayed from its journal, silently): the calls that asked wait
 * meanwhile, and the next live call of the same tool is that one again.
 */
export function innerCallsAfter(calls: readonly InnerCall[], { message }: CallProgress): InnerCall[] {
  if (message === undefined) return [...calls];
  if (ASKING.test(message))
    return calls.map((call) => (call.state === 'running' ? { ...call, state: 'waiting' } : call));
  const step = STEP.exec(message);
  if (!step) return [...calls];
  const [, tool, what] = step;
  if (what === 'running') {
    const asked = calls.findIndex((call) => call.tool === tool && call.state === 'waiting');
    return asked < 0 ? [...calls, { tool, state: 'running' }] : replaced(calls, asked, { tool, state: 'running' });
  }
  // Calls of one tool may run at once (Promise.all): the first still running is the one meant.
  const index = calls.findIndex((call) => call.tool === tool && call.state === 'running');
  if (index < 0) return [...calls];
  const done = DONE.exec(what);
  if (done) return replaced(calls, index, { tool, state: 'done', ms: Number(done[1]) });
  if (what === 'failed') return replaced(calls, index, { tool, state: 'failed' });
  if (what === WAITING) return replaced(calls, index, { ...calls[index], state: 'waiting' });
  return replaced(calls, index, { ...calls[index], message: what });
}

/** The calls as a program that ended left them: those still running or waiting were stopped. */
export const endedCalls = (calls: readonly InnerCall[]): InnerCall[] =>
  calls.map((call) => (call.state === 'running' || call.state === 'waiting' ? { ...call, state: 'stopped' } : call));

/**
 * What `execute` answered: the program's value, logs and calls; or, for a program that failed or was stopped, its
 * error's text and the lines it printed (which that text carries after `Logs:`).
 */
export type ProgramAnswer =
  { ok: true; result: unknown; logs: string[]; calls: InnerCall[] } | { ok: false; text: string; logs: string[] };

interface CallReport {
  tool: string;
  ms: number;
  ok: boolean;
  error?: string;
}

const isReport = (value: unknown): value is CallReport =>
  isSchema(value) && typeof value.tool === 'string' && typeof value.ms === 'number' && typeof value.ok === 'boolean';

const LOGS = '\nLogs:\n';
const CALLS = '\nCalls: ';

/** The lines a failed program printed, from its error's text: `<why>[\nLogs:\n<lines>][\nCalls: <calls>]`. */
function failureLogsOf(text: string): string[] {
  const start = text.indexOf(LOGS);
  if (start < 0) return [];
  const rest = text.slice(start + LOGS.length);
  const end = rest.lastIndexOf(CALLS);
  return (end < 0 ? rest : rest.slice(0, end)).split('\n');
}

export function programAnswerOf(result: CallToolResult): ProgramAnswer {
  const text = result.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  const answer = result.structuredContent;
  if (result.isError || !isSchema(answer))
    return { ok: false, text: text || 'execute answered no result', logs: failureLogsOf(text) };
  const logs = Array.isArray(answer.logs) ? answer.logs.map(String) : [];
  const calls = (Array.isArray(answer.calls) ? answer.calls : []).filter(isReport).map((call): InnerCall => ({
    tool: call.tool,
    state: call.ok ? 'done' : 'failed',
    ms: call.ms,
    ...(call.error !== undefined && { message: call.error }),
  }));
  return { ok: true, result: answer.result, logs, calls };
}
