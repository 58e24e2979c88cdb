// Unit tests of how the board app keeps up (src/mcp-apps/board/board-sync.ts): pushed by the host when it forwards
// updates, else waiting for changes through the app-only tool, else polling every second; nothing while hidden or idle.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type BoardLink, isUnsupported, POLL_MS, startBoardSync, type SyncMode, type Visibility } from '@/mcp-apps/board/board-sync';
import type { Board, BoardChange } from '@/modules/board/board-schemas';

const boardTitled = (title: string): Board => ({
  columns: [{ status: 'todo', title: 'To do', tasks: [{ title } as Board['columns'][number]['tasks'][number]] }],
  users: [],
});
const titleOf = (board: Board | undefined) => board?.columns[0].tasks[0]?.title;
const unsupported = Object.assign(new Error('Tool BoardController_waitForChange not found'), { code: -32602 });

/** A promise with its settle functions, to answer a call when the test says. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

/** A host link whose calls the test answers, counting them; `pushed.updated()` is the host forwarding an update. */
function fakeLink({ push }: { push?: 'ok' | 'refused' } = {}) {
  const waits: Array<{ after: string | undefined; answer: ReturnType<typeof deferred<BoardChange>> }> = [];
  const pushed = { updated: () => {}, unsubscribed: vi.fn() };
  let boards = 0;
  const link = {
    getBoard: vi.fn(async () => boardTitled(`board ${++boards}`)),
    waitForChange: vi.fn((after: string | undefined) => {
      const answer = deferred<BoardChange>();
      waits.push({ after, answer });
      return answer.promise;
    }),
    watchBoard:
      push &&
      vi.fn(async (onUpdated: () => void) => {
        if (push === 'refused') throw new Error('the host cannot');
        pushed.updated = onUpdated;
        return pushed.unsubscribed;
      }),
  } satisfies BoardLink;
  return { link, waits, pushed };
}

/** A page the test shows and hides. */
function fakePage() {
  let visible = true;
  const listeners = new Set<() => void>();
  const page: Visibility = {
    visible: () => visible,
    onVisible(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    page,
    hide: () => void (visible = false),
    show: () => {
      visible = true;
      for (const listener of [...listeners]) listener();
    },
  };
}

function start(link: BoardLink, page = fakePage().page) {
  const shown: Board[] = [];
  const modes: SyncMode[] = [];
  const states: string[] = [];
  const sync = startBoardSync(link, page, { show: (board) => shown.push(board), mode: (mode) => modes.push(mode), state: (state) => states.push(state) });
  return { sync, shown, modes, states, last: () => titleOf(shown.at(-1)) };
}

/** Lets pending promise callbacks run (fake timers do not advance on their own). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('when the host forwards the board resource’s updates', () => {
  test('it subscribes, asks for the board once, then once per update — and nothing while idle', async () => {
    const { link, pushed } = fakeLink({ push: 'ok' });
    const { sync, modes, last } = start(link);
    await settle();
    expect(modes).toEqual(['push']);
    expect(link.getBoard).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(link.getBoard).toHaveBeenCalledTimes(1);
    expect(link.waitForChange).not.toHaveBeenCalled();
    pushed.updated();
    await settle();
    expect(link.getBoard).toHaveBeenCalledTimes(2);
    expect(last()).toBe('board 2');
    sync.stop();
    expect(pushed.unsubscribed).toHaveBeenCalledTimes(1);
  });

  test('updates during a refresh make one more refresh, not one each; answers never arrive out of order', async () => {
    const { link, pushed } = fakeLink({ push: 'ok' });
    const answers: Array<ReturnType<typeof deferred<Board>>> = [];
    link.getBoard.mockImplementation(() => {
      const answer = deferred<Board>();
      answers.push(answer);
      return answer.promise;
    });
    const { shown } = start(link);
    await settle();
    expect(answers).toHaveLength(1);
    for (let i = 0; i < 5; i++) pushed.updated();
    answers[0].resolve(boardTitled('first'));
    await settle();
    expect(answers).toHaveLength(2);
    answers[1].resolve(boardTitled('second'));
    await settle();
    expect(answers).toHaveLength(2);
    expect(shown.map(titleOf)).toEqual(['first', 'second']);
  });

  test('an update while the app is hidden is fetched once it is visible again', async () => {
    const { link, pushed } = fakeLink({ push: 'ok' });
    const visibility = fakePage();
    start(link, visibility.page);
    await settle();
    visibility.hide();
    pushed.updated();
    pushed.updated();
    await settle();
    expect(link.getBoard).toHaveBeenCalledTimes(1);
    visibility.show();
    await settle();
    expect(link.getBoard).toHaveBeenCalledTimes(2);
  });

  test('a host or gateway that refuses the subscription leaves the app waiting for changes instead', async () => {
    const { link, waits } = fakeLink({ push: 'refused' });
    const { modes } = start(link);
    await settle();
    expect(modes).toEqual(['wait']);
    expect(waits).toHaveLength(1);
  });
});

describe('when the host does not forward updates', () => {
  const change = (title: string, version: string, changed = true): BoardChange => ({ board: boardTitled(title), version, changed });

  test('it waits for change after change: one request per answer, `after` the version shown', async () => {
    const { link, waits } = fakeLink();
    const { modes, last, shown } = start(link);
    await settle();
    expect(modes).toEqual(['wait']);
    expect(waits.map((wait) => wait.after)).toEqual([undefined]);
    waits[0].answer.resolve(change('now', 'v1'));
    await settle();
    expect(last()).toBe('now');
    waits[1].answer.resolve(change('now', 'v1', false)); // the wait ran out: nothing to repaint
    await settle();
    expect(shown).toHaveLength(1);
    waits[2].answer.resolve(change('later', 'v2'));
    await settle();
    expect(last()).toBe('later');
    expect(waits.map((wait) => wait.after)).toEqual([undefined, 'v1', 'v1', 'v2']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(waits).toHaveLength(4); // still the one wait: no timer asks for more
    expect(link.getBoard).not.toHaveBeenCalled();
  });

  test('a failed wait says reconnecting and is tried again a second later, then less often', async () => {
    const { link, waits } = fakeLink();
    const { states } = start(link);
    await settle();
    waits[0].answer.reject(new Error('fetch failed'));
    await settle();
    expect(states.at(-1)).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(waits).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(waits).toHaveLength(2);
    waits[1].answer.reject(new Error('fetch failed'));
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(waits).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(waits).toHaveLength(3);
    waits[2].answer.resolve(change('back', 'v1'));
    await settle();
    expect(states.at(-1)).toBe('live');
  });

  test('a hidden app starts no wait until it is visible again', async () => {
    const { link, waits } = fakeLink();
    const visibility = fakePage();
    start(link, visibility.page);
    await settle();
    visibility.hide();
    waits[0].answer.resolve(change('now', 'v1'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(waits).toHaveLength(1);
    visibility.show();
    await settle();
    expect(waits.map((wait) => wait.after)).toEqual([undefined, 'v1']);
  });

  test('only when the tool is refused as unknown does it poll the board every second, and not while hidden', async () => {
    const { link, waits } = fakeLink();
    const visibility = fakePage();
    const { modes, sync } = start(link, visibility.page);
    await settle();
    waits[0].answer.reject(unsupported);
    await settle();
    expect(modes).toEqual(['wait', 'poll']);
    await vi.advanceTimersByTimeAsync(10 * POLL_MS);
    expect(link.getBoard).toHaveBeenCalledTimes(10);
    visibility.hide();
    await vi.advanceTimersByTimeAsync(10 * POLL_MS);
    expect(link.getBoard).toHaveBeenCalledTimes(10);
    sync.stop();
    visibility.show();
    await vi.advanceTimersByTimeAsync(10 * POLL_MS);
    expect(link.getBoard).toHaveBeenCalledTimes(10);
  });

  test('the app’s own changes ask for the board at once only when polling (pushed or waiting, the change wakes it)', async () => {
    const waiting = fakeLink();
    const waited = start(waiting.link);
    await settle();
    await waited.sync.refresh();
    expect(waiting.link.getBoard).not.toHaveBeenCalled();
    waiting.waits[0].answer.reject(unsupported);
    await settle();
    await waited.sync.refresh();
    expect(waiting.link.getBoard).toHaveBeenCalledTimes(1);
  });
});

test('unsupported means refused as such: no such method or tool (JSON-RPC −32601, −32602), not a failed network', () => {
  expect(isUnsupported(unsupported)).toBe(true);
  expect(isUnsupported(Object.assign(new Error('Method not found'), { code: -32601 }))).toBe(true);
  expect(isUnsupported(Object.assign(new Error('Internal error'), { code: -32603 }))).toBe(false);
  expect(isUnsupported(new TypeError('fetch failed'))).toBe(false);
  expect(isUnsupported(undefined)).toBe(false);
});
