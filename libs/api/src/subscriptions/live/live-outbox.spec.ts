import { LiveOutbox } from './live-outbox';

describe('LiveOutbox', () => {
  it('hands payloads over in order, and a keyed payload replaces the one still waiting under its key', async () => {
    const outbox = new LiveOutbox<string>(10);
    outbox.push('task v1', 'task');
    outbox.push('other');
    outbox.push('task v2', 'task');
    expect(await outbox.next()).toEqual({ value: 'task v2', done: false });
    expect(await outbox.next()).toEqual({ value: 'other', done: false });
    const waiting = outbox.next();
    outbox.push('task v3', 'task');
    expect(await waiting).toEqual({ value: 'task v3', done: false });
  });

  it('fails with SLOW_CONSUMER instead of growing past its capacity, and tells the socket owner once', async () => {
    const slow = jest.fn();
    const outbox = new LiveOutbox<number>(2, slow);
    expect(outbox.push(1)).toBe(true);
    expect(outbox.push(2)).toBe(true);
    expect(outbox.push(3)).toBe(false);
    expect(outbox.push(4)).toBe(false);
    expect(outbox.size).toBe(0);
    await expect(outbox.next()).rejects.toMatchObject({ code: 'SLOW_CONSUMER', retriable: true });
    expect(await outbox.next()).toEqual({ value: undefined, done: true });
    expect(slow).toHaveBeenCalledTimes(1);
    expect(outbox.signal.aborted).toBe(true);
  });

  it('lets a producer wait for room, and cuts off a consumer that takes nothing for too long', async () => {
    const outbox = new LiveOutbox<number>(1);
    outbox.push(1);
    const room = outbox.waitForRoom(1_000);
    expect(await outbox.next()).toEqual({ value: 1, done: false });
    await expect(room).resolves.toBe(true);

    outbox.push(2);
    await expect(outbox.waitForRoom(20)).resolves.toBe(false);
    await expect(outbox.next()).rejects.toMatchObject({ code: 'SLOW_CONSUMER' });
  });

  it('answers return() at once while a next() waits, and aborts its producers', async () => {
    const outbox = new LiveOutbox<number>(5);
    const waiting = outbox.next();
    await outbox.return();
    await expect(waiting).resolves.toEqual({ value: undefined, done: true });
    expect(outbox.signal.aborted).toBe(true);
    expect(outbox.push(1)).toBe(false);
    await expect(outbox.waitForRoom(1_000)).resolves.toBe(false);
  });

  it('rejects a waiting next() with the error it fails with', async () => {
    const outbox = new LiveOutbox<number>(5);
    const waiting = outbox.next();
    outbox.fail(new Error('read model unavailable'));
    await expect(waiting).rejects.toThrow('read model unavailable');
    expect(await outbox.next()).toEqual({ value: undefined, done: true });
  });
});
