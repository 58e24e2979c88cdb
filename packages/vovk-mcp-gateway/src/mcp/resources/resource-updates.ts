// Tells the subscribers of procedure resources that data changes updated them: the changes (tables and rows) of a
// short spell are taken together, mapped to the resources and rows they touch, and each subscription hears once.
import 'server-only';
import type { ChangeListener, DataChange } from '../../db/driver.js';
import type { ProcedureResource, ResolvedResource } from './procedure-resources.js';

/** A change of any row (`changedBy: { tasks: '*' }`), or of any table (a change whose rows are unknown). */
const ANY = '*';
/** Changes this close together (a move touches several rows, an import many) make one notification per subscription. */
const COALESCE_MS = 20;
/**
 * Notifications of one subscription start at least this far apart, so a subscriber's cost does not grow with the
 * write rate: the first change after a quiet spell is told within COALESCE_MS, later ones together at the end of the
 * interval (as the board's stream does; the last change is always told).
 */
const NOTIFY_INTERVAL_MS = 250;

/** One subscription: the URI as its subscriber named it, told back to it on each update. */
interface Watch {
  uri: string;
  notify: (uri: string) => void;
}

export class ResourceUpdates {
  /** Per resource, per row key (`''`: a resource without rows), its subscriptions. */
  private readonly watched = new Map<ProcedureResource, Map<string, Set<Watch>>>();
  private count = 0;
  private pending: DataChange[] = [];
  private timer?: NodeJS.Timeout;
  private lastNotifiedAt = Number.NEGATIVE_INFINITY;
  private stopListening?: () => void;

  /** `listen`: the data's change feed (what every instance hears of every write, its own and the others'). */
  constructor(private readonly listen: (listener: ChangeListener) => () => void) {}

  /** How many subscriptions are held. */
  get size(): number {
    return this.count;
  }

  /**
   * Calls `notify(uri)` each time a change updates the resource `uri` names, until the returned function is called.
   * The change feed is listened to while anyone watches.
   */
  watch({ resource, rowKey }: Pick<ResolvedResource, 'resource' | 'rowKey'>, uri: string, notify: (uri: string) => void): () => void {
    const watch: Watch = { uri, notify };
    let rows = this.watched.get(resource);
    if (!rows) this.watched.set(resource, (rows = new Map()));
    let watches = rows.get(rowKey);
    if (!watches) rows.set(rowKey, (watches = new Set()));
    watches.add(watch);
    this.count++;
    this.stopListening ??= this.listen((changes) => this.changed(changes));
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      watches.delete(watch);
      if (!watches.size) rows.delete(rowKey);
      if (!rows.size) this.watched.delete(resource);
      if (--this.count) return;
      this.stopListening?.();
      clearTimeout(this.timer);
      this.stopListening = this.timer = undefined;
      this.pending = [];
    };
  }

  private changed(changes: readonly DataChange[]): void {
    this.pending.push(...changes);
    const wait = Math.max(COALESCE_MS, this.lastNotifiedAt + NOTIFY_INTERVAL_MS - performance.now());
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.lastNotifiedAt = performance.now();
      this.notify(this.pending.splice(0));
    }, wait);
  }

  /** Tells every subscription that `changes` touched, once. */
  private notify(changes: readonly DataChange[]): void {
    const touched = new Set<Watch>();
    const addAll = (watches: Iterable<Watch> | undefined) => {
      for (const watch of watches ?? []) touched.add(watch);
    };
    for (const [resource, rows] of this.watched) {
      for (const change of changes) {
        const param = change.table === ANY ? (resource.changedBy.size ? ANY : undefined) : resource.changedBy.get(change.table);
        if (param === undefined) continue;
        if (param === ANY || !change.ids) for (const watches of rows.values()) addAll(watches);
        else for (const id of change.ids) addAll(rows.get(String(id)));
      }
    }
    for (const watch of touched) {
      try {
        watch.notify(watch.uri);
      } catch (error) {
        console.error('[gateway] A resource update could not be told:', error);
      }
    }
  }
}
