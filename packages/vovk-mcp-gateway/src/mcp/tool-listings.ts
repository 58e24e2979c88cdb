// tools/list answered from a cache: one listing per kind of caller (protocol era, scopes that matter), built once.
import 'server-only';
import type { ListToolsResult, McpServer } from '@modelcontextprotocol/server';
import { RepeatedPart } from '../http/repeated-part.js';
import { type Caller, requestContext } from '../request-context.js';
import { type ListTools, sdkRequestHandler } from './register-tools.js';

/** Listings kept at most: one per era × combination of the tools' scopes a caller holds, so few in practice. */
const MAX_LISTINGS = 64;

/**
 * Where a result's member carries its own serialization for the MCP SDK (patches/@modelcontextprotocol+server+2.4.0.patch):
 * the SDK writes those bytes into a JSON reply instead of serializing the member again.
 */
const SDK_SERIALIZED_JSON = Symbol.for('mcp.serializedJson');

/**
 * The part of a caller that decides which tools it sees: `*` when auth is off (every tool), else the scopes it holds
 * of those the tools need, sorted (any other scope changes nothing).
 */
export function scopeSetOf(caller: Caller | undefined, toolScopes: ReadonlySet<string>): string {
  if (!caller) return '*';
  return [...new Set(caller.scopes.filter((scope) => toolScopes.has(scope)))].sort().join(' ');
}

/** A listing as kept: the result, and its tools' JSON, which every answer of the kind repeats. */
interface Listing {
  result: ListToolsResult;
  tools: RepeatedPart;
}

/**
 * The tools/list answers of a gateway whose catalogue is fixed for the life of the process (derived once at start).
 * The first request of a kind registers its tools and lists them with the SDK's own handler; the listing is kept,
 * and later requests of that kind get it without registering a tool. The tools are serialized once (the SDK writes
 * those bytes) and deflated once, when first compressed (`compression-policy` gzips the rest of each answer around them).
 */
export class ToolListings {
  readonly #listings = new Map<string, Listing>();

  /** Sets up tools/list on `server` for callers of `kind` (of the 2025 era if `legacy`); `registerVisible` registers the tools they may use. */
  serve(server: McpServer, kind: string, legacy: boolean, registerVisible: () => void): void {
    const listing = this.#listings.get(kind);
    if (listing) {
      server.server.registerCapabilities({ tools: { listChanged: true } });
      server.server.setRequestHandler('tools/list', () => answered(listing));
      return;
    }
    registerVisible();
    const listAll = sdkRequestHandler<ListTools>(server, 'tools/list');
    if (!listAll) return; // no tool to list: the SDK answers as it does without tools
    server.server.setRequestHandler('tools/list', async (request, ctx) => {
      const kept = keptListing(await listAll(request, ctx), legacy);
      if (this.#listings.size >= MAX_LISTINGS) this.#listings.delete(this.#listings.keys().next().value!);
      this.#listings.set(kind, kept);
      return answered(kept);
    });
  }
}

/**
 * The listing kept of `result`, without the cache hint of the request that listed it: for 2026-07-28 its tools without
 * `execution`, which that era does not have (its codec would copy every tool of every answer to drop it, and the copy
 * would not carry the serialization), and the tools' serialization attached where the SDK looks for it.
 */
function keptListing(result: ListToolsResult, legacy: boolean): Listing {
  const tools = legacy ? [...result.tools] : result.tools.map(({ execution: _dropped, ...tool }) => tool);
  const bytes = Buffer.from(JSON.stringify(tools));
  Object.defineProperty(tools, SDK_SERIALIZED_JSON, { value: bytes });
  // Its string keys only: the SDK carries the first request's cache hint on a symbol, and each answer has its own.
  return { result: { ...Object.fromEntries(Object.entries(result)), tools } as ListToolsResult, tools: new RepeatedPart(bytes) };
}

/** `listing`'s result, its repeated part noted for the compression policy. */
function answered(listing: Listing): ListToolsResult {
  const context = requestContext();
  if (context) context.repeatedPart = listing.tools;
  return listing.result;
}
