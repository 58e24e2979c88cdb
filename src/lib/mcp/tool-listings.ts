// tools/list answered from a cache: one listing per kind of caller (protocol era, scopes that matter), built once.
import 'server-only';
import type { ListToolsResult, McpServer } from '@modelcontextprotocol/server';
import type { Caller } from '@/lib/request-context';
import { type ListTools, sdkRequestHandler } from './register-tools';

/** Listings kept at most: one per era × combination of the tools' scopes a caller holds, so few in practice. */
const MAX_LISTINGS = 64;

/**
 * The part of a caller that decides which tools it sees: `*` when auth is off (every tool), else the scopes it holds
 * of those the tools need, sorted (any other scope changes nothing).
 */
export function scopeSetOf(caller: Caller | undefined, toolScopes: ReadonlySet<string>): string {
  if (!caller) return '*';
  return [...new Set(caller.scopes.filter((scope) => toolScopes.has(scope)))].sort().join(' ');
}

/**
 * The tools/list answers of a gateway whose catalogue is fixed for the life of the process (derived once at start).
 * The first request of a kind registers its tools and lists them with the SDK's own handler; the listing is kept,
 * and later requests of that kind get it without registering a tool.
 */
export class ToolListings {
  readonly #listings = new Map<string, ListToolsResult>();

  /** Sets up tools/list on `server` for callers of `kind`; `registerVisible` registers the tools they may use. */
  serve(server: McpServer, kind: string, registerVisible: () => void): void {
    const listing = this.#listings.get(kind);
    if (listing) {
      server.server.registerCapabilities({ tools: { listChanged: true } });
      server.server.setRequestHandler('tools/list', () => listing);
      return;
    }
    registerVisible();
    const listAll = sdkRequestHandler<ListTools>(server, 'tools/list');
    if (!listAll) return; // no tool to list: the SDK answers as it does without tools
    server.server.setRequestHandler('tools/list', async (request, ctx) => {
      const result = await listAll(request, ctx);
      if (this.#listings.size >= MAX_LISTINGS) this.#listings.delete(this.#listings.keys().next().value!);
      this.#listings.set(kind, result);
      return result;
    });
  }
}
