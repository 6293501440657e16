/**
 * A small in-process token bucket per key (an IP address, a participant token). Each key
 * holds up to `capacity` tokens and regains `refillPerSecond`; a request takes one.
 * With several app servers each applies its own limit, which is enough to stop brute force.
 */
export interface RateLimiter {
  /** Take a token for `key`; false when the bucket is empty. */
  take(key: string): boolean;
}

export function createRateLimiter(capacity: number, refillPerSecond: number): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const now = Date.now();
      const b = buckets.get(key) ?? { tokens: capacity, at: now };
      b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * refillPerSecond);
      b.at = now;
      if (buckets.size > 100_000) buckets.clear();
      if (b.tokens < 1) {
        buckets.set(key, b);
        return false;
      }
      b.tokens -= 1;
      buckets.set(key, b);
      return true;
    },
  };
}
