// Fair use (GATEWAY_RATE_LIMIT): a token bucket per caller, so one caller's flood gets 429 and the others are not slowed.
import 'server-only';

/** Buckets idle this long are forgotten (they would be full again anyway). */
const IDLE_MS = 60_000;

interface Bucket {
  tokens: number;
  at: number;
}

/** A limiter of `perSecond` requests a second per key, with `burst` requests allowed at once. */
export function createRateLimiter(perSecond: number, burst: number) {
  const buckets = new Map<string, Bucket>();
  let sweptAt = Date.now();

  function sweep(now: number) {
    if (now - sweptAt < IDLE_MS) return;
    sweptAt = now;
    for (const [key, bucket] of buckets) if (now - bucket.at > IDLE_MS) buckets.delete(key);
  }

  return {
    /** Takes one request of `key`'s allowance: 0 when allowed, else the seconds until one is (for `Retry-After`). */
    take(key: string): number {
      const now = Date.now();
      sweep(now);
      const bucket = buckets.get(key) ?? { tokens: burst, at: now };
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
      bucket.at = now;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    },
  };
}
