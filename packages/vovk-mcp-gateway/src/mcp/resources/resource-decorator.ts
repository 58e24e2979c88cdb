// `@resource()`: declares, next to a GET handler, that its procedure is also an MCP resource, and what changes it.
import 'server-only';
import { recordedInOperation } from '../../operation-fields.js';

/** `@operation` field where `@resource` records its declaration (OpenAPI readers see it, with the URI). */
export const RESOURCE_KEY = 'x-mcp-resource';

/** What `@resource` declares of a procedure's resource. */
export interface ResourceDeclaration {
  /**
   * The tables whose changes change it: table → the path parameter that holds the changed row's id (`{ tasks: 'id' }`:
   * a change of task 7 updates `…/tasks/7`), or `'*'`: a change of any of its rows updates it. Subscribers of the
   * resource hear of those changes (`notifications/resources/updated`). @default never changes
   */
  changedBy?: Record<string, string>;
  /** The media type resources/list announces. @default application/json for a procedure with an output schema */
  mimeType?: string;
  /**
   * How long (ms) a reader may keep what resources/read answered (the 2026-07-28 revision's `ttlMs`). A subscriber is
   * told of each change (`changedBy`) and may keep it until then. @default 0 (stale at once)
   */
  ttlMs?: number;
  /**
   * `private`: the procedure's answer depends on more than its URI (a cookie, a header, the client's address), so a
   * read is the reader's alone. @default `public` when auth is off; with auth on every read is `private`
   */
  cacheScope?: 'public' | 'private';
  /**
   * The procedures that complete the template's arguments (`completion/complete`): argument → the tool name of a GET
   * procedure whose query takes `value` (what was typed) and the arguments already chosen, and answers the matching
   * values (`string[]`, or `{ values, total?, hasMore? }`). It runs as a call of its tool does (scopes, decorators).
   * @default none (an argument without one completes to nothing)
   */
  complete?: Record<string, string>;
}

/**
 * Makes a GET procedure an MCP resource as well as a tool: `@resource({ changedBy: { tasks: 'id' } }) @get('{id}')`.
 * Its URI is its REST path under `vovk://gateway` (path parameters become the URI template's variables), and
 * resources/read runs the procedure as a call of its tool does. REST is unchanged.
 */
export function resource(declaration: ResourceDeclaration = {}) {
  return recordedInOperation({ [RESOURCE_KEY]: declaration });
}
