import { retryAfterMs } from './retry-after';

describe('retryAfterMs', () => {
  it('prefers retry-after-ms, then seconds, then an HTTP date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), Date.UTC(2026, 0, 1))).toBe(
      10_000,
    );
    expect(retryAfterMs(new Headers({}))).toBeUndefined();
  });
});
