// The explorer's MCP connection: the official client, pinned to 2026-07-28 (POST only), on the gateway's own endpoint
// with every tool listed; it can be asked questions (elicitation, form mode), which the page puts to its user. Calls
// report their progress and can be cancelled; declaring the Tasks extension, a call may run as a task (task-calls.ts);
// the gateway's own tool search ranks the tools for what the user types; its resources are listed, read and watched
// (resources.ts).
import 'client-only';
import {
  type AuthProvider,
  type CallToolResult,
  Client,
  type ElicitRequestFormParams,
  type ElicitResult,
  StreamableHTTPClientTransport,
  type Tool,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { bearerToken, recoverFromUnauthorized, rememberChallenge } from '../oauth.js';
import { MAX_HITS, SEARCH_TOOLS } from '../../shared/catalogue-names.js';
import { openRawRequests } from './raw-requests.js';
import { openResources, type ResourceAccess } from './resources.js';
import { type RunningTask, runningTaskOf } from './running-tasks.js';
import { openTaskCalls } from './task-calls.js';
import { CallCancelledError, type RunListeners, type ToolRun } from './tool-run.js';

export type { CallToolResult, ElicitResult, Tool };

/** A question a server asks while it serves a request: a message and the form of the answer (`requestedSchema`). */
export type Question = ElicitRequestFormParams;

/**
 * Puts a question to the page's user and settles with their answer: accept (with the form's content), decline or
 * cancel. `signal` aborts when the request that asked is given up; the question is then withdrawn. `askedBy` is the
 * tool whose call or task asks, when the connection knows it.
 */
export type AskUser = (question: Question, signal: AbortSignal, askedBy?: string) => Promise<ElicitResult>;

/** Where the gateway serves MCP, relative to its origin. */
export const MCP_PATH = '/api/mcp';

/**
 * The explorer's own endpoint at `origin`: every tool listed (`?tools=all`), whatever the size of the catalogue, since
 * the page shows them all (a client with nothing configured gets the search surface above MCP_LIST_MAX tools).
 */
export const explorerEndpoint = (origin: string) => new URL(`${MCP_PATH}?tools=all`, origin);


/** A tool `search_tools` found (what the explorer reads of a hit), best first. */
export interface SearchHit {
  name: string;
  /** Its module's toolset, then every toolset it is in. */
  toolset: string;
  toolsets: string[];
  /** How well it matches (higher is better). */
  score: number;
}

/** Pinned: the 2025-era path would also open a GET stream, which this stateless server answers 405. */
const PROTOCOL_VERSION = '2026-07-28';

const CLIENT_INFO = { name: 'vovk-gateway-explorer', version: '0.1.0' };

const CLIENT_CAPABILITIES = {
  // Form questions only: a URL-mode one would send the user to another site, which the explorer does not do.
  elicitation: { form: {} },
  // The explorer hosts MCP Apps (their UIs in sandboxed frames): it says so as the extension defines.
  extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
};

export interface StartOptions extends RunListeners {
  /**
   * Declare the Tasks extension on the call, so that the server may answer with a task. It decides (SEP-2663: a
   * 2026-07-28 tools/list says nothing of it): a long-running tool's call is one, unless the tool answers that call at
   * once. Without it the call is a plain client's, answered within its request.
   */
  withTasks: boolean;
}

export interface GatewayConnection {
  tools: Tool[];
  /** tools/call as a plain client (no Tasks extension), as an MCP App's calls are made. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Starts a tools/call (with a progress token when `onProgress` is given), which can be cancelled. */
  startTool(name: string, args: Record<string, unknown>, options: StartOptions): ToolRun;
  /** The task of `toolName` a previous page of this tab left running, if any. */
  runningTaskOf(toolName: string): RunningTask | undefined;
  /** Follows that task again, to its end. */
  resumeTask(task: RunningTask, listeners?: RunListeners): ToolRun;
  /** The gateway's resources: listed and read (how the explorer gets an MCP App's UI too), and watched for updates. */
  resources: ResourceAccess;
  /** The gateway's best tools for `query` (`search_tools`, its own ranking), best first; `signal` gives it up. */
  searchTools(query: string, signal: AbortSignal): Promise<SearchHit[]>;
  close(): Promise<void>;
}

/**
 * The transport's credentials: the page's bearer token before each request; after a 401, the session refreshed (the
 * transport then retries once), or an error that makes the explorer offer to sign in.
 */
function pageAuthProvider(): AuthProvider {
  let sentToken: string | undefined;
  return {
    token: async () => (sentToken = await bearerToken()),
    async onUnauthorized({ response }) {
      rememberChallenge(response);
      if (await recoverFromUnauthorized(sentToken)) return;
      throw new UnauthorizedError('HTTP 401: the gateway asks for a token');
    },
  };
}

/**
 * A plain client's tools/call; given `onProgress`, with a progress token (each progress notification then also
 * extends the request's timeout). Cancelling aborts its request, which the gateway sees as the caller leaving.
 */
function startPlainCall(
  client: Client,
  closing: AbortSignal,
  name: string,
  args: Record<string, unknown>,
  { onProgress }: RunListeners = {},
): ToolRun {
  const cancelling = new AbortController();
  const progress = onProgress ? { onprogress: onProgress, resetTimeoutOnProgress: true } : {};
  const result = client
    .callTool({ name, arguments: args }, { signal: AbortSignal.any([closing, cancelling.signal]), ...progress })
    .then(
      (answer) => answer as CallToolResult,
      (error: unknown) => {
        throw cancelling.signal.aborted ? new CallCancelledError() : error;
      },
    );
  return { result, cancel: async () => cancelling.abort(new CallCancelledError()) };
}

/** The hits of a `search_tools` result; an error result (or a malformed one) is thrown as its message. */
function searchHitsOf(result: CallToolResult): SearchHit[] {
  const text = result.content.map((item) => (item.type === 'text' ? item.text : '')).join(' ').trim();
  if (result.isError) throw new Error(text || `${SEARCH_TOOLS} failed`);
  const hits = (result.structuredContent as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(hits)) throw new Error(`${SEARCH_TOOLS} answered no list of tools`);
  return hits as SearchHit[];
}

/**
 * Connects to `endpoint` and lists its tools; rejects when the endpoint cannot be reached or does not speak MCP.
 * Questions the server asks during a call (an `input_required` result, which the client fulfils and retries; a task's
 * input requests) go to `askUser`.
 */
export async function connectGateway(endpoint: URL, askUser: AskUser): Promise<GatewayConnection> {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
    capabilities: CLIENT_CAPABILITIES,
  });
  // The client refuses URL-mode questions itself (only form mode is declared): what reaches here is a form.
  client.setRequestHandler('elicitation/create', (request, ctx) =>
    askUser(request.params as ElicitRequestFormParams, ctx.mcpReq.signal),
  );
  // Closing gives up the calls still running, and so withdraws the questions they are waiting on.
  const closing = new AbortController();
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: pageAuthProvider() }));
  const raw = await openRawRequests(endpoint, pageAuthProvider());
  const resources = openResources(client);
  try {
    const { tools } = await client.listTools();
    const taskCalls = openTaskCalls(client, {
      endpoint,
      tools,
      framing: { protocolVersion: PROTOCOL_VERSION, clientInfo: CLIENT_INFO, clientCapabilities: CLIENT_CAPABILITIES },
      raw,
      askUser,
    });
    return {
      tools,
      callTool: (name, args) => startPlainCall(client, closing.signal, name, args).result,
      startTool: (name, args, { withTasks, ...listeners }) =>
        withTasks
          ? taskCalls.start(name, args, listeners)
          : startPlainCall(client, closing.signal, name, args, listeners),
      runningTaskOf,
      resumeTask: (task, listeners) => taskCalls.resume(task, listeners),
      resources,
      searchTools: async (query, signal) => {
        const request = { name: SEARCH_TOOLS, arguments: { query, limit: MAX_HITS } };
        const result = await client.callTool(request, { signal: AbortSignal.any([closing.signal, signal]) });
        return searchHitsOf(result as CallToolResult);
      },
      close: async () => {
        closing.abort(new Error('the explorer closed its MCP connection'));
        await Promise.all([taskCalls.close(), resources.close()]);
        await Promise.all([client.close(), raw.close()]);
      },
    };
  } catch (error) {
    await Promise.all([client.close(), raw.close()]);
    throw error;
  }
}
