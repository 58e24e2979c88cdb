// ResourceUpdates: data changes (table, rows) reach exactly the subscriptions of the resources and rows they touch,
// once per coalesced spell; the store is listened to only while someone watches.
import { describe, expect, test } from 'vitest';
import { ANY_CHANGE, type ChangeListener, type DataChange } from '@gateway/db/driver';
import type { ProcedureResource } from '@gateway/mcp/resources/procedure-resources';
import { ResourceUpdates } from '@gateway/mcp/resources/resource-updates';

/** A resource as ResourceUpdates sees it: only what changes it matters. */
const resourceChangedBy = (changedBy: Record<string, string>) => ({ changedBy: new Map(Object.entries(changedBy)) }) as unknown as ProcedureResource;

const board = resourceChangedBy({ tasks: '*', users: '*' });
const task = resourceChangedBy({ tasks: 'id' });
const image = resourceChangedBy({});

/** A change feed the test drives, and whether anyone listens to it. */
function feed() {
  const listeners = new Set<ChangeListener>();
  return {
    listen: (listener: ChangeListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (...changes: DataChange[]) => {
      for (const listener of listeners) listener(changes);
    },
    get listening() {
      return listeners.size;
    },
  };
}

/** Subscribes `uri` (of `resource`, row `rowKey`) and collects what it hears. */
function subscribe(updates: ResourceUpdates, resource: ProcedureResource, rowKey: string, uri: string) {
  const heard: string[] = [];
  const stop = updates.watch({ resource, rowKey }, uri, (updated) => heard.push(updated));
  return { heard, stop };
}

describe('resource updates', () => {
  test('a change reaches the subscriptions of the rows it names and of the resources any row changes, each once', async () => {
    const changes = feed();
    const updates = new ResourceUpdates(changes.listen);
    const seven = subscribe(updates, task, '7', 'vovk://gateway/api/tasks/7');
    const eight = subscribe(updates, task, '8', 'vovk://gateway/api/tasks/8');
    const wholeBoard = subscribe(updates, board, '', 'vovk://gateway/api/board');
    const picture = subscribe(updates, image, '', 'vovk://gateway/api/media/image');
    // Several changes of one spell (a move touches several rows of several statements): one notification each.
    changes.emit({ table: 'tasks', ids: [7, 9] }, { table: 'tasks', ids: [7] });
    changes.emit({ table: 'users', ids: [1] });
    await expect.poll(() => wholeBoard.heard).toEqual(['vovk://gateway/api/board']);
    expect(seven.heard).toEqual(['vovk://gateway/api/tasks/7']);
    expect(eight.heard).toEqual([]);
    expect(picture.heard).toEqual([]);

    // Rows not known (another process, a reconnect): whatever any change could touch hears of it; never-changing ones do not.
    changes.emit(ANY_CHANGE);
    await expect.poll(() => eight.heard).toEqual(['vovk://gateway/api/tasks/8']);
    expect(seven.heard).toHaveLength(2);
    expect(wholeBoard.heard).toHaveLength(2);
    expect(picture.heard).toEqual([]);
    // A table's change without ids (too many to name): every row of it.
    changes.emit({ table: 'tasks' });
    await expect.poll(() => eight.heard).toHaveLength(2);
    expect(seven.heard).toHaveLength(3);
  });

  test('the store is listened to only while someone watches; a stopped subscription hears nothing more', async () => {
    const changes = feed();
    const updates = new ResourceUpdates(changes.listen);
    expect(changes.listening).toBe(0);
    const first = subscribe(updates, task, '1', 'vovk://gateway/api/tasks/1');
    const second = subscribe(updates, task, '1', 'vovk://gateway/api/tasks/1');
    expect([changes.listening, updates.size]).toEqual([1, 2]);
    first.stop();
    first.stop(); // twice: still one subscription gone
    expect(updates.size).toBe(1);
    changes.emit({ table: 'tasks', ids: [1] });
    await expect.poll(() => second.heard).toHaveLength(1);
    expect(first.heard).toEqual([]);
    second.stop();
    expect([changes.listening, updates.size]).toEqual([0, 0]);
  });
});
