// The one per-request context of both doors: which door, who is calling, the MCP tool a call names, the call in progress.
import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { ClientCapabilities, InputRequest, ServerContext } from '@modelcontextprotocol/server';
import type { RepeatedPart } from './http/repeated-part.js';
import type { Work } from './long-work/current-work.js';
import type { CatalogueView } from './catalogue/catalogue.js';

/** Who is calling, as every procedure may learn it (`currentCaller()`): both doors fill it in the same way. */
export interface Caller {
  /** The token's `sub` (null for the static GATEWAY_TOKEN, which names nobody). */
  subject: string | null;
  /** The OAuth client the token was issued to. */
  clientId: string;
  scopes: string[];
}

/** The door a request came through. */
export type Door = 'rest' | 'mcp';

/** An MCP tool call being served. */
export interface ToolCall {
  /** The MCP request context of the call (logging, progress notifications, request `_meta`). */
  mcp: ServerContext;
  /** The same call as a REST URL, for GET procedures (where oversize media can be fetched instead). */
  readonly restUrl?: string;
  /** What the client declared it can be asked (elicitation, sampling, roots); undefined when unknown. */
  readonly clientCapabilities?: ClientCapabilities;
  /** The client's answers so far, by key: this round's input responses over those of earlier rounds. */
  readonly answers: Record<string, unknown>;
  /** Whether destructive tools ask for confirmation (MCP_CONFIRM_DESTRUCTIVE). */
  readonly confirmDestructive: boolean;
  /** Set when the procedure asked for input it does not have yet: the call answers with these requests. */
  pendingInput?: Record<string, InputRequest>;
  /** Set when the user confirmed the action of this call. */
  confirmed?: boolean;
  /**
   * What the tool keeps across the rounds of an input-required call (code mode: the journal of its inner calls): the
   * earlier round's, in the signed requestState; what the tool sets goes into the next round's.
   */
  carry?: unknown;
  /**
   * What the procedure answered, as the formatter saw it: its HTTP status (an error's, else 200) and media type. A
   * resource read turns the tool's result into contents (and a 404 into "resource not found") by it.
   */
  outcome?: ToolOutcome;
}

/** A procedure's answer as the formatter saw it. */
interface ToolOutcome {
  status: number;
  /** The media type of its body: `application/json` for a JSON value, the Response's type otherwise. */
  mimeType: string;
}

/** What is known about the request being served; set by the guards, filled in along the MCP path. */
export interface RequestContext {
  readonly door: Door;
  /** The HTTP request as it arrived (its headers, method and URL; decorators see them on both doors). */
  readonly request?: Request;
  /** Who is calling, once the guards verified the bearer token; undefined when auth is off. */
  caller?: Caller;
  /** MCP: the JSON-RPC method of the request, noted from mcp-handler's own parse before its server is set up. */
  mcpMethod?: string;
  /** MCP: the tool a `tools/call` runs (the one `call_tool` names, for a call through it), noted the same way. */
  calledTool?: string;
  /** MCP: the tool a `tools/call` goes through to run `calledTool` (`call_tool`), if any. */
  calledThrough?: string;
  /** MCP: what the request's connection sees of the catalogue (its toolsets, read-only, surface). */
  catalogueView?: CatalogueView;
  /** MCP: set when the reply carries image or audio content (base64), which the compression policy leaves alone. */
  repliesWithMedia?: boolean;
  /** A large part of the reply that many replies repeat (a tools/list listing's tools), deflated once for all of them. */
  repeatedPart?: RepeatedPart;
  /** Ids of the errors masked while serving it (each logged with the real error), for the request's log line. */
  readonly maskedErrorIds: string[];
  /** MCP: the tool call in progress, while its tool runs. */
  readonly toolCall?: ToolCall;
  /** The long work of the procedure being run (progress, cancellation); set by the door or the task runner. */
  work?: Work;
}

const storageKey = Symbol.for('vovk-gateway.request-context');
type GlobalWithStorage = typeof globalThis & { [storageKey]?: AsyncLocalStorage<RequestContext> };

/**
 * One context storage per process, shared by every bundle of the server (each route bundle and the instrumentation
 * bundle have their own copy of this module): work that one bundle starts (a job) runs code of another (a procedure).
 */
const storage = ((globalThis as GlobalWithStorage)[storageKey] ??= new AsyncLocalStorage<RequestContext>());

/** Serves `fn` as a request of `door`, in a context of its own. */
export function runInRequestContext<T>(door: Door, fn: () => T, request?: Request): T {
  return storage.run({ door, maskedErrorIds: [], ...(request ? { request } : {}) }, fn);
}

/**
 * Runs `fn` in a copy of the current context whose HTTP request is `request`: for a message whose work outlives the
 * HTTP request that brought it (an HTTP+SSE message is answered 202 at once; its call must not end with that answer).
 */
export function runWithRequest<T>(request: Request, fn: () => T): T {
  const context = storage.getStore();
  return context ? storage.run({ ...context, request }, fn) : fn();
}

/** Runs a tool as `toolCall`, inside the context of its request (or a fresh MCP one outside of any, as in unit tests). */
export function runInToolCall<T>(toolCall: ToolCall, fn: () => T): T {
  return storage.run({ ...(storage.getStore() ?? { door: 'mcp', maskedErrorIds: [] }), toolCall }, fn);
}

/** The context of the request being served; undefined outside of one. */
export function requestContext(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * Who is calling — subject (`sub`), client id and scopes — on either door; undefined when auth is off (no
 * OAUTH_ISSUER, no GATEWAY_TOKEN) or outside of a request.
 */
export function currentCaller(): Caller | undefined {
  return storage.getStore()?.caller;
}

/** The MCP tool call in progress; undefined for REST requests and outside of a call. */
export function currentToolCall(): ToolCall | undefined {
  return storage.getStore()?.toolCall;
}

/**
 * Who a session, job or task belongs to: the token's client and subject (a digest of them); with auth off, everyone
 * (then its unguessable id is what keeps it private).
 */
export function principalOf(caller: Caller | undefined): string {
  return caller ? createHash('sha256').update(`${caller.clientId}\0${caller.subject ?? ''}`).digest('base64url') : '';
}

/** Runs `fn` as the long work `work` (progress, cancellation), in a copy of the current context. */
export function runInWork<T>(work: Work, fn: () => T): T {
  return storage.run({ ...(storage.getStore() ?? { door: 'mcp', maskedErrorIds: [] }), work }, fn);
}
