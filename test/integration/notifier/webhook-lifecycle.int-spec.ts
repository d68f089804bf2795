import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver, settle } from './support/notifier-harness';

describe('webhook lifecycle: deletion stops deliveries and removes state; 410 Gone disables', () => {
  const fixture = notifierWithReceiver({ settings: { maxAttempts: 2 } });

  it('a deleted webhook receives nothing more, and its stream states and dead letters are purged', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_life', { url: receiver.url, eventTypes: ['task'] });
    receiver.respondWith(() => 500);
    const stream = new TaskStream(notifier.events, 'ws_life');
    await stream.append();
    await eventually(
      async () => (await notifier.service.deadLetters('ws_life', webhook.id)).items.length === 1,
      'a dead letter',
    );

    await notifier.service.delete('ws_life', webhook.id);
    expect(await notifier.service.list('ws_life')).toEqual([]);
    await eventually(async () => (await notifier.documents.count('notifier_webhooks')) === 0, 'the webhook purged');
    const requestsBefore = receiver.requests.length;
    await stream.append();
    await settle();
    expect(receiver.requests).toHaveLength(requestsBefore);
    for (const collection of ['notifier_streams', 'notifier_dead_letters', 'notifier_cursors', 'notifier_leases']) {
      expect(await notifier.documents.count(collection)).toBe(0);
    }
  });

  it('410 Gone disables the webhook; re-enabling resumes delivery where it stopped', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_life', { url: receiver.url, eventTypes: ['task'] });
    receiver.respondWith(() => 410);
    const stream = new TaskStream(notifier.events, 'ws_life');
    await stream.append();
    await eventually(
      async () => (await notifier.service.get('ws_life', webhook.id)).status === 'disabled',
      'the webhook disabled',
    );
    expect((await notifier.service.get('ws_life', webhook.id)).disabledReason).toBe('the receiver answered 410 Gone');
    await stream.append();
    await settle();
    expect(receiver.requests).toHaveLength(1);

    receiver.respondWith(() => 200);
    await notifier.service.setEnabled('ws_life', webhook.id, true);
    await eventually(() => receiver.accepted.length === 2, 'both events after re-enabling');
    expect(receiver.accepted.map((r) => r.body.metadata.revision)).toEqual([0, 1]);
  });
});
