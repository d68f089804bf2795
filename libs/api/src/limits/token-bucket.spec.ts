import { TokenBucketRateLimiter } from './token-bucket';

describe('TokenBucketRateLimiter', () => {
  it('allows a burst, refuses beyond it with the wait until enough tokens are back, and refills over time', () => {
    let now = 0;
    const limiter = new TokenBucketRateLimiter({ burst: 3, perSecond: 2, now: () => now });
    expect([1, 2, 3].map(() => limiter.take('t1').allowed)).toEqual([true, true, true]);
    expect(limiter.take('t1')).toEqual({ allowed: false, retryAfterMs: 500, remaining: 0 });
    now = 500;
    expect(limiter.take('t1').allowed).toBe(true);
    expect(limiter.take('t1').allowed).toBe(false);
  });

  it('keeps one bucket per key and charges a batch its number of operations', () => {
    const limiter = new TokenBucketRateLimiter({ burst: 5, perSecond: 1, now: () => 0 });
    expect(limiter.take('a', 5).allowed).toBe(true);
    expect(limiter.take('a', 1).allowed).toBe(false);
    expect(limiter.take('b', 4)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('drops idle full buckets when it holds too many, without forgetting an empty one', () => {
    let now = 0;
    const limiter = new TokenBucketRateLimiter({ burst: 2, perSecond: 1, now: () => now, maxBuckets: 2 });
    limiter.take('spent', 2);
    limiter.take('idle', 0);
    now = 100;
    limiter.take('new');
    expect(limiter.take('spent').allowed).toBe(false);
  });
});
