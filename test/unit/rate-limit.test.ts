// Unit tests of the fair-use token bucket: the burst at once, then the rate, per key; Retry-After when over.
import { afterEach, expect, test, vi } from 'vitest';
import { createRateLimiter } from '@gateway/http/rate-limit';

afterEach(() => vi.useRealTimers());

test('a key gets its burst at once, then the rate; other keys are untouched; Retry-After is whole seconds', () => {
  vi.useFakeTimers({ now: 0 });
  const limit = createRateLimiter(2, 4);
  expect(Array.from({ length: 6 }, () => limit.take('a'))).toEqual([0, 0, 0, 0, 1, 1]);
  expect(limit.take('b')).toBe(0);
  vi.advanceTimersByTime(500); // half a second at 2/s: one more request
  expect([limit.take('a'), limit.take('a')]).toEqual([0, 1]);
  vi.advanceTimersByTime(60_000); // a long pause refills to the burst, not past it
  expect(Array.from({ length: 5 }, () => limit.take('a'))).toEqual([0, 0, 0, 0, 1]);
});

test('a slow rate asks for a longer wait', () => {
  vi.useFakeTimers({ now: 0 });
  const limit = createRateLimiter(0.25, 1);
  expect([limit.take('a'), limit.take('a')]).toEqual([0, 4]);
});
