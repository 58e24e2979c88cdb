// The explorer's MCP connection: the official client, pinned to 2026-07-28 (POST only), on the gateway's own endpoint;
// it can be asked questions (elicitation, form mode), which the page puts to its user.
import 'client-only';
import {
  type AuthProvider,
  type CallToolResult,
  Client,
  type ElicitRequestFormParams,
  type ElicitResult,
  type ReadResourceResult,
  StreamableHTTPClientTransport,
  type Tool,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { bearerToken, recoverFromUnauthorized, rememberChallenge } from '@/browser/oauth';

export type { CallToolResult, ElicitResult, Tool };

/** A question a server asks while it serves a request: a message and the form of the answer (`requestedSchema`). */
export type Question = ElicitRequestFormParams;

/**
 * Puts a question to the page's user and settles with their answer: accept (with the form's content), decline or
 * cancel. `signal` aborts when the request that asked is given up; the question is then withdrawn.
 */
export type AskUser = (question: Question, signal: AbortSignal) => Promise<ElicitResult>;

/** Where the gateway serves MCP, relative to its origin. */
export const MCP_PATH = '/api/mcp';

/** Pinned: the 2025-era path would also open a GET stream, which this stateless server answers 405. */
const PROTOCOL_VERSION = '2026-07-28';

export interface GatewayConnection {
  tools: Tool[];
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** resources/read: how the explorer gets the UI of a tool that has one (an MCP App). */
  readResource(uri: string): Promise<ReadResourceResult>;
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
 * Connects to `endpoint` and lists its tools; rejects when the endpoint cannot be reached or does not speak MCP.
 * Questions the server asks during a call (an `input_required` result, which the client fulfils and retries) go to
 * `askUser`.
 */
export async function connectGateway(endpoint: URL, askUser: AskUser): Promise<GatewayConnection> {
  const client = new Client(
    { name: 'vovk-gateway-explorer', version: '0.1.0' },
    {
      versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
      capabilities: {
        // Form questions only: a URL-mode one would send the user to another site, which the explorer does not do.
        elicitation: { form: {} },
        // The explorer hosts MCP Apps (their UIs in sandboxed frames): it says so as the extension defines.
        extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } },
      },
    },
  );
  // The client refuses URL-mode questions itself (only form mode is declared): what reaches here is a form.
  client.setRequestHandler('elicitation/create', (request, ctx) =>
    askUser(request.params as ElicitRequestFormParams, ctx.mcpReq.signal),
  );
  // Closing gives up the calls still running, and so withdraws the questions they are waiting on.
  const closing = new AbortController();
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: pageAuthProvider() }));
  try {
    const { tools } = await client.listTools();
    return {
      tools,
      callTool: async (name, args) =>
        (await client.callTool({ name, arguments: args }, { signal: closing.signal })) as CallToolResult,
      readResource: (uri) => client.readResource({ uri }),
      close: () => {
        closing.abort(new Error('the explorer closed its MCP connection'));
        return client.close();
      },
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}
