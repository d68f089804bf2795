import { PassThrough } from 'node:stream';
import { UnavailableError, type AllStreamResolvedEvent } from '@eventstore/db-client';
import type { LiveSubscription } from './esdb-client';
import { FeedQueue } from './feed-queue';

class FakeFeed extends PassThrough implements LiveSubscription {
  readonly calls: string[] = [];
  constructor() {
    super({ objectMode: true });
  }
  override pause(): this {
    this.calls.push('pause');
    return super.pause();
  }
  override resume(): this {
    this.calls.push('resume');
    return super.resume();
  }
  async unsubscribe(): Promise<void> {
    this.end();
  }
}

const event = (n: number) => ({ event: { id: `e${n}` } }) as unknown as AllStreamResolvedEvent;
const idOf = (item: Awaited<ReturnType<FeedQueue['next']>>) =>
  item.kind === 'event' ? (item.event.event as { id: string }).id : item.kind;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FeedQueue', () => {
  it('hands out events in order, pausing the feed at the high-water mark and resuming at half', async () => {
    const feed = new FakeFeed();
    const queue = new FeedQueue(feed, 4);
    for (let n = 1; n <= 4; n += 1) feed.write(event(n));
    await tick();
    expect(queue.size).toBe(4);
    // Attaching the 'data' listener itself resumes the stream once; what follows is the queue's doing.
    const sincePause = () => feed.calls.slice(feed.calls.indexOf('pause'));
    expect(sincePause()).toEqual(['pause']);
    expect(idOf(await queue.next())).toBe('e1');
    expect(sincePause()).toEqual(['pause']);
    expect(idOf(await queue.next())).toBe('e2');
    expect(sincePause()).toEqual(['pause', 'resume']);
  });

  it('delivers what arrived before an error, then throws it', async () => {
    const feed = new FakeFeed();
    const queue = new FeedQueue(feed, 10);
    feed.write(event(1));
    await tick();
    const failure = new UnavailableError();
    feed.emit('error', failure);
    expect(idOf(await queue.next())).toBe('e1');
    await expect(queue.next()).rejects.toBe(failure);
  });

  it('reports idle after the time asked for, an end by the server, and a close', async () => {
    const feed = new FakeFeed();
    const queue = new FeedQueue(feed, 10);
    expect(idOf(await queue.next(5))).toBe('idle');
    const waiting = queue.next();
    feed.write(event(7));
    expect(idOf(await waiting)).toBe('e7');
    feed.end();
    await tick();
    expect(idOf(await queue.next())).toBe('ended');
    queue.close();
    expect(idOf(await queue.next())).toBe('closed');
  });

  it('close wakes a consumer that is waiting', async () => {
    const queue = new FeedQueue(new FakeFeed(), 10);
    const waiting = queue.next();
    queue.close();
    expect(idOf(await waiting)).toBe('closed');
  });
});
