// What the session lane reads of a POST body: its JSON-RPC messages (one, or a batch), parsed once.
import 'server-only';

/** The fields of a JSON-RPC message the lane looks at. */
export type JsonRpcMessage = { id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } };

/** A body's text as JSON; undefined when it is empty or not JSON (the transport then answers the parse error). */
export function parsedJson(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The messages of a parsed body: the one it holds, or those of a batch (anything that is no object left out). */
export function messagesOf(body: unknown): JsonRpcMessage[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.filter((message): message is JsonRpcMessage => typeof message === 'object' && message !== null);
}
