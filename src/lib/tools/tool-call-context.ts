// The MCP tool call being served, visible to procedures and to the formatter without threading it through Vovk.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerContext } from '@modelcontextprotocol/server';

export interface ToolCallContext {
  /** The MCP request context (logging, progress notifications, request `_meta`). */
  mcp?: ServerContext;
  /** The same call as a REST URL, when the tool is a GET procedure: where oversize media can be fetched instead. */
  restUrl?: string;
}

const storage = new AsyncLocalStorage<ToolCallContext>();

/** Runs `fn` as the given tool call. */
export function runInToolCall<T>(context: ToolCallContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The tool call in progress, or undefined outside of one (REST requests, unit calls). */
export function currentToolCall(): ToolCallContext | undefined {
  return storage.getStore();
}
