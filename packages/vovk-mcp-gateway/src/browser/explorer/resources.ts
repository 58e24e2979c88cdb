// The explorer's way to the gateway's resources over its MCP connection: list them (and their templates), read one,
// and watch one for updates — on 2026-07-28 a subscriptions/listen stream per resource, shared by every app of the
// page that watches it, opened again when it drops (its watchers are told then, as they may have missed an update).
import 'client-only';
import type {
  Client,
  ListResourcesResult,
  ListResourceTemplatesResult,
  McpSubscription,
  ReadResourceResult,
} from '@modelcontextprotocol/client';

export type { ListResourcesResult, ListResourceTemplatesResult, ReadResourceResult };

export interface ResourceAccess {
  /** resources/list, every page; `fresh` asks the gateway again rather than the client's cache. */
  list(fresh?: boolean): Promise<ListResourcesResult>;
  /** resources/templates/list, every page. */
  templates(fresh?: boolean): Promise<ListResourceTemplatesResult>;
  /** resources/read of `uri`; `fresh` as for `list`. */
  read(uri: string, fresh?: boolean): Promise<ReadResourceResult>;
  /** Whether the gateway says it sends resources' updates (`resources.subscribe`). */
  canWatch(): boolean;
  /**
   * Calls `onUpdated` after each change of `uri` until the returned function is called; rejects when the gateway does
   * not honour the subscription.
   */
  watch(uri: string, onUpdated: () => void): Promise<() => void>;
  /** Ends every watch. */
  close(): Promise<void>;
}

/** The first wait before a dropped stream is opened again; it doubles up to REOPEN_MAX_MS while opening fails. */
const REOPEN_MS = 1000;
const REOPEN_MAX_MS = 15_000;

/** The watchers of one resource and its stream (none while it is opened again). */
interface Watch {
  listeners: Set<() => void>;
  opened: Promise<void>;
  subscription?: McpSubscription;
}

const cacheMode = (fresh?: boolean): 'refresh' | 'use' => (fresh ? 'refresh' : 'use');

/** `client`'s resources; `client` gets the page's one handler of notifications/resources/updated. */
export function openResources(client: Client): ResourceAccess {
  const watches = new Map<string, Watch>();
  const notify = (uri: string) => {
    for (const listener of watches.get(uri)?.listeners ?? []) listener();
  };
  client.setNotificationHandler('notifications/resources/updated', ({ params }) => notify(params.uri));

  async function open(uri: string, watch: Watch): Promise<void> {
    const subscription = await client.listen({ resourceSubscriptions: [uri] });
    if (!subscription.honoredFilter.resourceSubscriptions?.includes(uri)) {
      await subscription.close();
      throw new Error(`The gateway sends no updates of ${uri}`);
    }
    if (watches.get(uri) !== watch) return void subscription.close();
    watch.subscription = subscription;
    void subscription.closed.then((cause) => (cause === 'local' ? undefined : reopen(uri, watch)));
  }

  /** Opens the stream of `watch` again (the server ended it, or it dropped) while anyone watches. */
  async function reopen(uri: string, watch: Watch): Promise<void> {
    watch.subscription = undefined;
    for (let waitMs = REOPEN_MS; watches.get(uri) === watch; waitMs = Math.min(2 * waitMs, REOPEN_MAX_MS)) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      if (watches.get(uri) !== watch) return;
      try {
        await open(uri, watch);
        return notify(uri);
      } catch {
        // not reachable yet: wait longer
      }
    }
  }

  function end(uri: string, watch: Watch): void {
    if (watches.get(uri) !== watch) return;
    watches.delete(uri);
    void watch.subscription?.close();
  }

  return {
    list: (fresh) => client.listResources(undefined, { cacheMode: cacheMode(fresh) }),
    templates: (fresh) => client.listResourceTemplates(undefined, { cacheMode: cacheMode(fresh) }),
    read: (uri, fresh) => client.readResource({ uri }, { cacheMode: cacheMode(fresh) }),
    canWatch: () => Boolean(client.getServerCapabilities()?.resources?.subscribe),
    async watch(uri, onUpdated) {
      let watch = watches.get(uri);
      if (!watch) {
        const opening: Watch = { listeners: new Set(), opened: Promise.resolve() };
        opening.opened = open(uri, opening).catch((error: unknown) => {
          end(uri, opening);
          throw error;
        });
        watches.set(uri, (watch = opening));
      }
      await watch.opened;
      const watched = watch;
      watched.listeners.add(onUpdated);
      return () => {
        watched.listeners.delete(onUpdated);
        if (!watched.listeners.size) end(uri, watched);
      };
    },
    async close() {
      const open = [...watches.values()];
      watches.clear();
      await Promise.all(open.map((watch) => watch.subscription?.close()));
    },
  };
}
