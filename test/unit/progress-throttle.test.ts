// Progress as callers see it: at most one update per interval, never going back, and the last one never lost.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import type { ProgressUpdate } from '@gateway/long-work/current-work';
import { throttledProgress } from '@gateway/long-work/progress-throttle';

test('a burst of updates goes out as the first and the newest, one interval apart; going back is dropped', async () => {
  const sent: ProgressUpdate[] = [];
  const progress = throttledProgress((update) => sent.push(update), 100);
  for (let done = 1; done <= 50; done++) progress.report({ done, total: 50 });
  progress.report({ done: 10, total: 50 });
  expect(sent.map((update) => update.done)).toEqual([1]);
  await sleep(150);
  expect(sent.map((update) => update.done)).toEqual([1, 50]);
});

test('flush sends a waiting update at once', () => {
  const sent: number[] = [];
  const progress = throttledProgress(({ done }) => sent.push(done), 10_000);
  progress.report({ done: 1 });
  progress.report({ done: 2 });
  progress.flush();
  expect(sent).toEqual([1, 2]);
});
