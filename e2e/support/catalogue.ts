// The catalogue's ways in, for end-to-end tests: a selection as URL query or X-MCP-* headers, calls through call_tool
// beside direct ones, search_tools hits, and the MCP clients of other projects (Vercel's AI SDK, LangChain) and the SDK
// clients behind one small interface.
import { createMCPClient } from '@ai-sdk/mcp';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { mcpURL } from './json-rpc';
import { type ConnectOptions, connect, type Era, eras, type GatewayClient, type Progress, type ToolResult } from './mcp';

export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';
/** The `_meta` key of a listed tool's toolsets. */
export const TOOLSETS_META_KEY = 'dev.vovk/toolsets';

/** What a connection selects of the catalogue, spelled as a client writes it (any case, comma-separated toolsets). */
export interface Selection {
  toolsets?: string;
  readonly?: string;
  tools?: string;
}

/** How a client passes its selection: in the MCP URL's query, or in the X-MCP-* headers. */
export const selectionForms = ['query', 'header'] as const;
export type SelectionForm = (typeof selectionForms)[number];

/** The MCP URL of `baseURL` with `selection` in its query (`?toolsets=…&readonly=…&tools=…`). */
export function selectingURL(baseURL: string, selection: Selection): string {
  const url = mcpURL(baseURL);
  for (const [name, value] of Object.entries(selection)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** `selection` as the headers `X-MCP-Toolsets`, `X-MCP-Readonly` and `X-MCP-Tools`. */
export function selectionHeaders({ toolsets, readonly, tools }: Selection): Record<string, string> {
  return {
    ...(toolsets !== undefined && { 'X-MCP-Toolsets': toolsets }),
    ...(readonly !== undefined && { 'X-MCP-Readonly': readonly }),
    ...(tools !== undefined && { 'X-MCP-Tools': tools }),
  };
}

/** A client of `era` connected to `baseURL` selecting `selection` in the given form. */
export function connectSelecting(
  era: Era,
  baseURL: string,
  selection: Selection,
  form: SelectionForm,
  options: ConnectOptions = {},
): Promise<GatewayClient> {
  if (form === 'query') return connect(era, selectingURL(baseURL, selection), options);
  return connect(era, baseURL, { ...options, headers: { ...options.headers, ...selectionHeaders(selection) } });
}

/** A call of `name` with `args` through `call_tool`. */
export const throughCallTool = (
  client: GatewayClient,
  name: string,
  args: Record<string, unknown> = {},
  options?: { onprogress?: (progress: Progress) => void },
) => client.callTool(CALL_TOOL, { name, arguments: args }, options);

/** What a call came to: its result, or the JSON-RPC error the call was refused with. */
export type Outcome = { result: ToolResult } | { error: { code?: number; message: string } };

export async function outcomeOf(call: Promise<ToolResult>): Promise<Outcome> {
  try {
    return { result: await call };
  } catch (error) {
    const { code, message } = error as { code?: number; message: string };
    return { error: { code, message } };
  }
}

/** One hit of `search_tools`. */
export interface SearchHit {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  toolset: string;
  toolsets: string[];
  score: number;
}

/** The hits `search_tools` answers `client` for `query`. */
export async function searchTools(client: GatewayClient, query: string, limit?: number): Promise<SearchHit[]> {
  const result = await client.callTool(SEARCH_TOOLS, { query, ...(limit && { limit }) });
  if (result.isError) throw new Error(`search_tools failed: ${JSON.stringify(result.content)}`);
  return (result.structuredContent as { tools: SearchHit[] }).tools;
}

/** Every MCP client the catalogue is proven with: the official SDK clients of both eras, and two of other projects. */
export const clientKinds = [...eras, 'Vercel AI SDK (@ai-sdk/mcp)', 'LangChain (@langchain/mcp-adapters)'] as const;
export type ClientKind = (typeof clientKinds)[number];

/** What a model sees of a tool result: its text items, and whether it is an error. */
interface SeenResult {
  texts: string[];
  isError: boolean;
}

/** Any of the clients, reduced to what the tests do with it: list the tools' names, call one, close. */
export interface AnyClient {
  toolNames(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<SeenResult>;
  close(): Promise<void>;
}

type ContentItem = { type?: string; text?: string };
const textsOf = (content: unknown): string[] => {
  const items = (Array.isArray(content) ? content : [content]) as Array<ContentItem | string>;
  return items.flatMap((item) => (typeof item === 'string' ? [item] : item?.type === 'text' && item.text !== undefined ? [item.text] : []));
};

/** A client of `kind` connected to the MCP URL `url` (its query selects the surface). */
export async function connectAny(kind: ClientKind, url: string): Promise<AnyClient> {
  if (kind === eras[0] || kind === eras[1]) {
    const client = await connect(kind, url);
    return {
      toolNames: async () => (await client.listTools()).map((tool) => tool.name),
      call: async (name, args) => {
        const result = await client.callTool(name, args);
        return { texts: textsOf(result.content), isError: result.isError === true };
      },
      close: () => client.close(),
    };
  }
  if (kind === 'Vercel AI SDK (@ai-sdk/mcp)') {
    const client = await createMCPClient({ transport: { type: 'http', url } });
    // The tools as the AI SDK hands them to a model (`generateText({ tools })`), each run by its own `execute`.
    const tools = await client.tools();
    return {
      toolNames: async () => Object.keys(tools),
      call: async (name, args) => {
        const result = (await tools[name].execute(args, { toolCallId: name, messages: [], context: {} })) as { content: unknown; isError?: boolean };
        return { texts: textsOf(result.content), isError: result.isError === true };
      },
      close: () => client.close(),
    };
  }
  const client = new MultiServerMCPClient({ mcpServers: { gateway: { transport: 'http', url } }, prefixToolNameWithServerName: false });
  // The tools as LangChain hands them to an agent: structured tools, run by `invoke`; a tool error is thrown.
  const tools = await client.getTools();
  return {
    toolNames: async () => tools.map((tool) => tool.name),
    call: async (name, args) => {
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool) throw new Error(`LangChain lists no tool ${name}`);
      try {
        return { texts: textsOf(await tool.invoke(args)), isError: false };
      } catch (error) {
        return { texts: [(error as Error).message], isError: true };
      }
    },
    close: () => client.close(),
  };
}
