// The requests the v2 Client cannot send itself (its codecs refuse a task handle): JSON-RPC requests the ext-tasks
// requester framed, over a Streamable HTTP transport of their own — the page's credentials, the 2026-07-28 headers
// derived from each body (Mcp-Method, Mcp-Name) — each answered by its id, with the progress it reports on the way.
import 'client-only';
import {
  type AuthProvider,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Progress,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import type { JsonRpcResponse, RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';

type ProgressToken = string | number;

export interface RawRequests {
  dispatch: RawClientDispatch;
  /** Calls `listener` with the `notifications/progress` of requests sent with `token`; returns the unsubscribe. */
  onProgress(token: ProgressToken, listener: (progress: Progress) => void): () => void;
  close(): Promise<void>;
}

interface Waiting {
  settle(response: JsonRpcResponse): void;
  fail(error: unknown): void;
}

/** The answer of a JSON-RPC response, in the shape the ext-tasks port expects. */
function responseOf(message: JSONRPCMessage): JsonRpcResponse | undefined {
  if (isJSONRPCResultResponse(message)) return { kind: 'result', result: message.result as never };
  if (isJSONRPCErrorResponse(message)) return { kind: 'error', error: message.error as never };
  return undefined;
}

/** Opens the requests' own transport on `endpoint`; `authProvider` gives it the page's token, as the Client's has. */
export async function openRawRequests(endpoint: URL, authProvider: AuthProvider): Promise<RawRequests> {
  const transport = new StreamableHTTPClientTransport(endpoint, { authProvider });
  const waiting = new Map<string, Waiting>();
  const progressListeners = new Map<ProgressToken, (progress: Progress) => void>();
  transport.onmessage = (message) => {
    if (isJSONRPCNotification(message)) {
      if (message.method !== 'notifications/progress') return;
      const { progressToken, ...progress } = message.params as Progress & { progressToken: ProgressToken };
      return progressListeners.get(progressToken)?.(progress);
    }
    const response = responseOf(message);
    if (response && 'id' in message) waiting.get(String(message.id))?.settle(response);
  };
  // Failures reach the request that met them (send rejects, or its stream ends unanswered): nothing to add here.
  transport.onerror = () => {};
  await transport.start();

  let lastId = 0;
  const dispatch: RawClientDispatch = (request, options = {}) =>
    new Promise((resolve, reject) => {
      const id = `explorer-raw-${++lastId}`;
      const done = () => waiting.delete(id);
      const fail = (error: unknown) => done() && reject(error);
      waiting.set(id, { settle: (response) => done() && resolve(response), fail });
      const message = { ...(request as object), jsonrpc: '2.0', id } as JSONRPCRequest;
      // The transport owns the headers a body decides (a task's Mcp-Name is its params.taskId): only others pass.
      transport
        .send(message, {
          requestSignal: options.signal,
          headers: options.context?.headers,
          onRequestStreamEnd: () => fail(new Error(`The answer to ${message.method} ended before it came`)),
        })
        .catch(fail);
      options.signal?.addEventListener('abort', () => fail(options.signal!.reason), { once: true });
    });

  return {
    dispatch,
    onProgress(token, listener) {
      progressListeners.set(token, listener);
      return () => progressListeners.delete(token);
    },
    close: () => transport.close(),
  };
}
