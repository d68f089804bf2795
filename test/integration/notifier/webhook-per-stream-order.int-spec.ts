import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver, settle } from './support/notifier-harness';
import { TestReceiver, type ReceivedRequest } from './support/test-receiver';

/** Revisions each stream's receiver accepted, in arrival order. */
const acceptedRevisions = (receiver: TestReceiver, streamId: string) =>
  receiver.accepted.filter((r) => r.body.metadata.streamId === streamId).map((r) => r.body.metadata.revision);

const isEvent = (r: Omit<ReceivedRequest, 'status'>, streamId: string, revision: number) =>
  r.body.metadata.streamId === streamId && r.body.metadata.revision === revision;

describe('per-stream order: a stream waits behind its dead letter while other streams go on', () => {
  const fixture = notifierWithReceiver({ settings: { maxAttempts: 2 } });

  async function interleaved(): Promise<{ webhookId: string; a: TaskStream; b: TaskStream }> {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_order', { url: receiver.url, eventTypes: ['task'] });
    const a = new TaskStream(notifier.events, 'ws_order');
    const b = new TaskStream(notifier.events, 'ws_order');
    // a:2 fails until the receiver is told otherwise.
    receiver.respondWith((r) => (isEvent(r, a.id, 2) ? 500 : 200));
    for (let i = 0; i < 5; i += 1) {
      await a.append();
      await b.append();
    }
    return { webhookId: webhook.id, a, b };
  }

  it('blocks a stream behind its dead letter until it is redelivered, while the other stream is delivered in full', async () => {
    const { notifier, receiver } = fixture;
    const { webhookId, a, b } = await interleaved();
    await eventually(() => acceptedRevisions(receiver, b.id).length === 5, "the other stream's five events");
    await eventually(
      async () => (await notifier.service.deadLetters('ws_order', webhookId)).items.length === 1,
      'the dead letter',
    );
    await settle();

    expect(acceptedRevisions(receiver, b.id)).toEqual([0, 1, 2, 3, 4]);
    expect(acceptedRevisions(receiver, a.id)).toEqual([0, 1]);
    const [deadLetter] = (await notifier.service.deadLetters('ws_order', webhookId)).items;
    expect(deadLetter).toMatchObject({ streamId: a.id, revision: 2, status: 'open' });

    // Later events of the blocked stream wait too, however many arrive.
    await a.append();
    await settle();
    expect(acceptedRevisions(receiver, a.id)).toEqual([0, 1]);

    receiver.respondWith(() => 200);
    await notifier.service.redeliver('ws_order', deadLetter.id);
    await eventually(() => acceptedRevisions(receiver, a.id).length === 6, 'the blocked stream resumed');
    expect(acceptedRevisions(receiver, a.id)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('skipping the dead letter lets the stream go on without it', async () => {
    const { notifier, receiver } = fixture;
    const { webhookId, a } = await interleaved();
    await eventually(
      async () => (await notifier.service.deadLetters('ws_order', webhookId)).items.length === 1,
      'the dead letter',
    );
    const [deadLetter] = (await notifier.service.deadLetters('ws_order', webhookId)).items;

    const skipped = await notifier.service.skip('ws_order', deadLetter.id);
    expect(skipped.status).toBe('skip_requested');
    await eventually(() => acceptedRevisions(receiver, a.id).length === 4, 'the rest of the stream');
    expect(acceptedRevisions(receiver, a.id)).toEqual([0, 1, 3, 4]);
    expect((await notifier.service.deadLetters('ws_order', webhookId)).items[0].status).toBe('skipped');
  });
});

describe('per-stream order under transient failures and a restart', () => {
  // Enough attempts that no event is dead-lettered: this is about retries alone.
  const fixture = notifierWithReceiver({ settings: { maxAttempts: 50 } }, 'all');

  it('keeps every stream in order under random transient failures', async () => {
    const { notifier, receiver } = fixture;
    await notifier.service.register('ws_order', { url: receiver.url, eventTypes: ['task'] });
    let seed = 7;
    // Deterministic pseudo-random failures, a third of all requests.
    receiver.respondWith(() => ((seed = (seed * 48271) % 2147483647) % 3 === 0 ? 502 : 200));
    const streams = Array.from({ length: 6 }, () => new TaskStream(notifier.events, 'ws_order'));
    for (let i = 0; i < 8; i += 1) for (const s of streams) await s.append();
    // A restart midway: the durable stream states resume without reordering.
    await settle(50);
    await notifier.restartEngine();
    const expected = [0, 1, 2, 3, 4, 5, 6, 7];
    await eventually(
      () => streams.every((s) => acceptedRevisions(receiver, s.id).length >= 8),
      'every event accepted',
      10_000,
    );
    for (const s of streams) expect(acceptedRevisions(receiver, s.id)).toEqual(expected);
  });
});
