import { CoalescingReads } from './coalescing-reads';

const flush = () => new Promise((resolve) => setImmediate(resolve));
const waitUntil = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
};

describe('CoalescingReads', () => {
  it('holds reads until started, then reads each marked id once however many notices came', async () => {
    const reads: string[] = [];
    const controller = new AbortController();
    const coalescing = new CoalescingReads(
      (id) => Promise.resolve(void reads.push(id)),
      controller.signal,
      10,
      () => undefined,
      () => undefined,
    );
    coalescing.mark('a');
    coalescing.mark('a');
    coalescing.mark('b');
    await flush();
    expect(reads).toEqual([]);
    coalescing.start();
    await flush();
    expect(reads).toEqual(['a', 'b']);
    expect(coalescing.idle).toBe(true);
  });

  it('reads again an id marked while its read was running (the notice came after the read began)', async () => {
    const reads: string[] = [];
    let release: () => void = () => undefined;
    const coalescing = new CoalescingReads(
      (id) => {
        reads.push(id);
        return reads.length === 1 ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
      },
      new AbortController().signal,
      10,
      () => undefined,
      () => undefined,
    );
    coalescing.start();
    coalescing.mark('a');
    coalescing.mark('a');
    release();
    await flush();
    await flush();
    expect(reads).toEqual(['a', 'a']);
  });

  it('reports an overflow when more ids wait than the subscriber can take', () => {
    const overflow = jest.fn();
    const coalescing = new CoalescingReads(
      () => Promise.resolve(),
      new AbortController().signal,
      2,
      () => undefined,
      overflow,
    );
    for (const id of ['a', 'b', 'c']) coalescing.mark(id);
    expect(overflow).toHaveBeenCalledTimes(1);
  });
  it('tries a read that failed retriably again, and fails the subscription only on a lasting or non-retriable error', async () => {
    const retriable = Object.assign(new Error('socket timed out'), { retriable: true });
    const attempts: string[] = [];
    const failures: unknown[] = [];
    const coalescing = new CoalescingReads(
      (id) => {
        attempts.push(id);
        if (id === 'flaky' && attempts.filter((a) => a === id).length < 3) return Promise.reject(retriable);
        if (id === 'broken') return Promise.reject(new Error('not retriable'));
        return Promise.resolve();
      },
      new AbortController().signal,
      10,
      (error) => failures.push(error),
      () => undefined,
    );
    coalescing.start();
    coalescing.mark('flaky');
    coalescing.mark('next');
    await waitUntil(() => coalescing.idle);
    expect(attempts).toEqual(['flaky', 'flaky', 'flaky', 'next']);
    expect(failures).toEqual([]);

    coalescing.mark('broken');
    await waitUntil(() => failures.length > 0);
    expect(attempts.filter((a) => a === 'broken')).toHaveLength(1);
  });
});
