// Resource subscriptions of both eras: a URI is subscribed to only when it names a resource that exists and that the
// caller may read, within the caller's share of listen streams and subscriptions on this instance.
import 'server-only';
import { ResourceNotFoundError, type ServerContext } from '@modelcontextprotocol/server';
import { missingScopes } from '../../auth/scopes.js';
import { currentCaller } from '../../request-context.js';
import type { ProcedureResources } from './procedure-resources.js';
import type { ResourceUpdates } from './resource-updates.js';

/** How much of an instance one caller may hold (MCP_MAX_LISTEN_STREAMS_PER_CALLER, MCP_MAX_SUBSCRIPTIONS_PER_CALLER). */
export interface SubscriptionLimits {
  maxStreamsPerCaller: number;
  maxPerCaller: number;
}

/** Why a URI was not subscribed to. */
export type SubscriptionRefusal =
  | { reason: 'not-found'; message: string }
  | { reason: 'insufficient-scope'; message: string }
  | { reason: 'over-share'; message: string };

/** A subscription: stops its notifications and gives its place in the caller's share back. */
export type Subscription = { stop: () => void };

/** Reads a URI that is no procedure resource (an app's UI, a test fixture) on the server of the request; rejects when it cannot. */
export type ReadOther = (uri: string) => Promise<unknown>;

/** Counts what each caller holds, within a share. */
class PerCaller {
  private readonly held = new Map<string, number>();

  constructor(readonly share: number) {}

  /** Takes one place of `caller`'s share; false when it has none left. */
  take(caller: string): boolean {
    const count = this.held.get(caller) ?? 0;
    if (count >= this.share) return false;
    this.held.set(caller, count + 1);
    return true;
  }

  give(caller: string): void {
    const count = (this.held.get(caller) ?? 1) - 1;
    if (count > 0) this.held.set(caller, count);
    else this.held.delete(caller);
  }
}

/** Runs `release` once, however often the function it returns is called. */
function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

export class ResourceSubscriptions {
  private readonly streams: PerCaller;
  private readonly subscriptions: PerCaller;

  constructor(
    private readonly resources: ProcedureResources,
    private readonly updates: ResourceUpdates,
    limits: SubscriptionLimits,
  ) {
    this.streams = new PerCaller(limits.maxStreamsPerCaller);
    this.subscriptions = new PerCaller(limits.maxPerCaller);
  }

  /** How many subscriptions to procedure resources are held (for the benchmark's figures). */
  get watching(): number {
    return this.updates.size;
  }

  /** How many resource subscriptions one caller may hold. */
  get share(): number {
    return this.subscriptions.share;
  }

  /** How many listen streams one caller may hold open. */
  get streamShare(): number {
    return this.streams.share;
  }

  /** Opens a listen stream of `caller`: its close, or undefined when the caller holds its share of streams. */
  openStream(caller: string): (() => void) | undefined {
    return this.streams.take(caller) ? once(() => this.streams.give(caller)) : undefined;
  }

  /**
   * Subscribes the caller of this request (`caller`: its key) to `uri`, whose updates then go to `notify`: when it
   * names a resource that exists — a procedure's, read as resources/read reads it (`ctx`: the request's, if any), or
   * another one `readOther` reads — that the caller may read, within its share.
   */
  async subscribe(
    uri: string,
    caller: string,
    notify: (uri: string) => void,
    { ctx, readOther, signal }: { ctx?: ServerContext; readOther: ReadOther; signal?: AbortSignal },
  ): Promise<Subscription | SubscriptionRefusal> {
    // The share first: a URI past it costs no read.
    if (!this.subscriptions.take(caller)) {
      const message = `Too many resource subscriptions: this caller holds ${this.subscriptions.share} (MCP_MAX_SUBSCRIPTIONS_PER_CALLER)`;
      return { reason: 'over-share', message };
    }
    const refusal = await this.refusalOf(uri, { ctx, readOther, signal });
    if (typeof refusal === 'object' && 'reason' in refusal) {
      this.subscriptions.give(caller);
      return refusal;
    }
    const unwatch = refusal ? this.updates.watch(refusal, uri, notify) : () => {};
    return {
      stop: once(() => {
        unwatch();
        this.subscriptions.give(caller);
      }),
    };
  }

  /** Why the caller may not subscribe to `uri`; else the procedure resource it names (undefined: another resource). */
  private async refusalOf(uri: string, { ctx, readOther, signal }: { ctx?: ServerContext; readOther: ReadOther; signal?: AbortSignal }) {
    const resolved = await this.resources.resolve(uri);
    if (resolved) {
      const missing = missingScopes(currentCaller()?.scopes, resolved.resource.tool.scopes);
      if (missing.length) return { reason: 'insufficient-scope', message: `Reading ${uri} needs the scope ${missing.join(' ')} (insufficient_scope)` } as const;
    }
    try {
      await (resolved ? this.resources.read(uri, ctx, signal) : readOther(uri));
    } catch (error) {
      const message = error instanceof ResourceNotFoundError ? error.message : `Resource ${uri} cannot be read: ${(error as Error).message}`;
      return { reason: 'not-found', message } as const;
    }
    return resolved;
  }
}
