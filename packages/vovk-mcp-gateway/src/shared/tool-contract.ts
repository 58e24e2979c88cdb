// The tool contract of a catalogue (what callers rely on of each tool) and its lock file's text: written, read, checked.

/** A JSON Schema as tools/list carries it. */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** What a caller relies on of one tool of the catalogue. */
export interface ContractTool {
  name: string;
  title?: string;
  /** Old names it stays callable by (`@toolAliases`). */
  aliases?: string[];
  annotations?: Record<string, unknown>;
  /** The OAuth scopes a call needs. */
  scopes: string[];
  /** The toolsets that list it: its module's first. */
  toolsets: string[];
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
}

/** The contract of a catalogue: each of its tools (the gateway's own search and code tools aside), sorted by name. */
export interface ToolContract {
  version: typeof CONTRACT_VERSION;
  tools: ContractTool[];
}

/** The version of the lock file's format. */
const CONTRACT_VERSION = 1;

/** The lock file `vovk-mcp-gateway tools lock` writes by default, in the app's folder. */
export const DEFAULT_LOCK_FILE = 'mcp-tools.lock.json';

/**
 * `Symbol.for` key of the list a process sets on `globalThis` to hear of each gateway created from then on (the
 * `tools` command's child process does, then loads the app's MCP route): `createMcpGateway` adds a {@link RecordedGateway}.
 */
export const GATEWAY_REGISTRY_KEY = 'vovk-mcp-gateway.gateways';

/** A gateway as the registry records it: the contract of the catalogue it serves. */
export interface RecordedGateway {
  contract(): ToolContract;
}

/** Code-point order, the same on every machine (localeCompare is not). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The contract of `tools`, in name order (their aliases too). */
export function contractOf(tools: readonly ContractTool[]): ToolContract {
  const sorted = tools.map((tool) => (tool.aliases ? { ...tool, aliases: [...tool.aliases].sort(byCodePoint) } : tool));
  return { version: CONTRACT_VERSION, tools: sorted.sort((a, b) => byCodePoint(a.name, b.name)) };
}

/** JSON.stringify replacer that writes every object's keys in code-point order. */
const sortedKeys = (_key: string, value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => byCodePoint(a, b)))
    : value;

/** `value` as JSON with every object's keys in code-point order: equal for equal values, whatever order they were built in. */
export const canonicalJson = (value: unknown, indent?: number) => JSON.stringify(value, sortedKeys, indent);

/** The lock file's text of `contract`: the same bytes for the same contract (keys sorted, two-space indent, final newline). */
export function serializeContract(contract: ToolContract): string {
  return `${canonicalJson(contract, 2)}\n`;
}

/** A lock file that cannot be read as a contract: its message says which file and what is wrong, in one line. */
export class ContractFileError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const isSchema = (value: unknown) => isObject(value) || typeof value === 'boolean';

/** What is wrong with `tool` as a contract's tool, or undefined when nothing is. */
function toolProblem(tool: unknown): string | undefined {
  if (!isObject(tool) || typeof tool.name !== 'string' || !tool.name) return 'has no name';
  if (tool.title !== undefined && typeof tool.title !== 'string') return 'has a title that is no string';
  if (tool.aliases !== undefined && !isStrings(tool.aliases)) return 'has aliases that are no list of names';
  if (tool.annotations !== undefined && !isObject(tool.annotations)) return 'has annotations that are no object';
  if (!isStrings(tool.scopes) || !isStrings(tool.toolsets)) return 'needs lists of names as scopes and toolsets';
  if (!isSchema(tool.inputSchema)) return 'has no inputSchema';
  if (tool.outputSchema !== undefined && !isSchema(tool.outputSchema)) return 'has an outputSchema that is no JSON Schema';
  return undefined;
}

/** The contract in the lock file `file` whose text is `text`; a {@link ContractFileError} saying what is wrong otherwise. */
export function parseContract(text: string, file: string): ToolContract {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ContractFileError(`${file} is not JSON (${(error as Error).message}): write it anew with \`vovk-mcp-gateway tools lock\``);
  }
  if (!isObject(parsed) || parsed.version !== CONTRACT_VERSION || !Array.isArray(parsed.tools)) {
    throw new ContractFileError(`${file} is no tool contract of version ${CONTRACT_VERSION} ({ "version": 1, "tools": [...] })`);
  }
  for (const [index, tool] of parsed.tools.entries()) {
    const problem = toolProblem(tool);
    if (problem) throw new ContractFileError(`${file}: tool ${index + 1} (${(tool as { name?: unknown })?.name ?? 'unnamed'}) ${problem}`);
  }
  return parsed as unknown as ToolContract;
}
