// The cache hints (`ttlMs`, `cacheScope`) of the 2026-07-28 revision's cacheable results, true for the request they answer.
import 'server-only';
import type { CacheHint, CacheScope, McpServerOptions } from '@modelcontextprotocol/server';
import { SELECTION_CHOICES } from '../shared/catalogue-names.js';
import { requestContext } from '../request-context.js';

/** The cacheable methods whose answer is a listing of the catalogue (or `server/discover`): stable until a deploy. */
const LISTING_METHODS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'] as const;

/**
 * Whether the request names a catalogue selection in a header (`X-MCP-Toolsets`, …). A shared cache keys an answer by
 * the server's URL, the method and its parameters, never by such a header: an answer it shapes is not for everyone.
 */
function selectsByHeader(request: Request | undefined): boolean {
  return Object.values(SELECTION_CHOICES).some(({ header }) => Boolean(request?.headers.get(header)?.trim()));
}

/**
 * Who may keep the answer to this request: `private` when the caller shapes it — auth is on (a token's scopes decide
 * what is listed and read) — else `public`, the same for everyone who asks the same URL.
 */
function callerScope(): CacheScope {
  return requestContext()?.caller ? 'private' : 'public';
}

/** The scope of a listing: the caller's, and `private` too when a request header selects what is listed. */
function listingScope(): CacheScope {
  return selectsByHeader(requestContext()?.request) ? 'private' : callerScope();
}

/**
 * The hint of a procedure resource's read: the freshness it declares (`@resource({ ttlMs })`), kept by the caller alone
 * when auth is on or the procedure declares `cacheScope: 'private'` (its answer depends on more than its URI).
 */
export function readCacheHint(declared: { ttlMs?: number; cacheScope?: CacheScope }): CacheHint {
  const cacheScope = declared.cacheScope === 'private' ? 'private' : callerScope();
  return { ttlMs: declared.ttlMs ?? 0, cacheScope };
}

/**
 * The server-level hints, for `new McpServer(…, { cacheHints })`: the listings and `server/discover` may be kept for
 * `listTtlMs`; any other resource read (an app's UI) is stale at once. mcp-handler builds every request's server from
 * one options object, so each hint is a getter, read when the request's server registers its handlers (inside the
 * request). The SDK sends them only on 2026-07-28 answers: the 2025-11-25 revision has no such fields.
 */
export function requestCacheHints(listTtlMs: number): NonNullable<McpServerOptions['cacheHints']> {
  const listing = () => ({ ttlMs: listTtlMs, cacheScope: listingScope() });
  const hints: NonNullable<McpServerOptions['cacheHints']> = {
    // What a server can do does not depend on who asks (nor on its selection): the same for everyone.
    'server/discover': { ttlMs: listTtlMs, cacheScope: 'public' },
  };
  for (const method of LISTING_METHODS) Object.defineProperty(hints, method, { get: listing, enumerable: true });
  Object.defineProperty(hints, 'resources/read', { get: () => readCacheHint({}), enumerable: true });
  return hints;
}
