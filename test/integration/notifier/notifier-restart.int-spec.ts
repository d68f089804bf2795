import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver, settle } from './support/notifier-harness';
import { TestReceiver } from './support/test-receiver';

const revisionsOf = (receiver: TestReceiver, streamId: string) =>
  receiver.accepted.filter((r) => r.body.metadata.streamId === streamId).map((r) => r.body.metadata.revision);

describe('restart: cursors, blocked streams and dead letters are durable', () => {
  const fixture = notifierWithReceiver({ settings: { maxAttempts: 2 } });

  it('a stream blocked before a restart still waits after it, and resumes in order when redelivered', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_restart', { url: receiver.url, eventTypes: ['task'] });
    const a = new TaskStream(notifier.events, 'ws_restart');
    const b = new TaskStream(notifier.events, 'ws_restart');
    receiver.respondWith((r) => (r.body.metadata.streamId === a.id && r.body.metadata.revision === 1 ? 500 : 200));
    for (let i = 0; i < 3; i += 1) await a.append();
    await eventually(
      async () => (await notifier.service.deadLetters('ws_restart', webhook.id)).items.length === 1,
      'a dead letter',
    );

    await notifier.restartEngine();
    for (let i = 0; i < 2; i += 1) {
      await a.append();
      await b.append();
    }
    await eventually(() => revisionsOf(receiver, b.id).length === 2, 'the other stream after the restart');
    await settle();
    expect(revisionsOf(receiver, a.id)).toEqual([0]);

    receiver.respondWith(() => 200);
    const [deadLetter] = (await notifier.service.deadLetters('ws_restart', webhook.id)).items;
    await notifier.service.redeliver('ws_restart', deadLetter.id);
    await eventually(() => revisionsOf(receiver, a.id).length === 5, 'the blocked stream resumed');
    expect(revisionsOf(receiver, a.id)).toEqual([0, 1, 2, 3, 4]);
    expect(revisionsOf(receiver, b.id)).toEqual([0, 1]);
  });

  it('two notifier instances share the webhooks through leases: each event is delivered by one of them, once', async () => {
    const { notifier } = fixture;
    const receivers = await Promise.all([1, 2, 3, 4].map(() => TestReceiver.start()));
    try {
      const second = await notifier.startEngine();
      for (const r of receivers) await notifier.service.register('ws_pair', { url: r.url, eventTypes: ['task'] });
      const stream = new TaskStream(notifier.events, 'ws_pair');
      for (let i = 0; i < 5; i += 1) await stream.append();

      await eventually(() => receivers.every((r) => r.accepted.length === 5), 'every webhook delivered');
      await settle();
      const first = notifier.engine.activeWebhookIds();
      const other = second.activeWebhookIds();
      expect(first.filter((id) => other.includes(id))).toEqual([]);
      expect(first.length + other.length).toBe(4);
      for (const r of receivers) expect(r.accepted.map((x) => x.body.metadata.revision)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });
});
