import { ValidationError } from '@lomo/contracts';
import { EVENT_ID_HEADER } from '@lomo/webhooks';
import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver } from './support/notifier-harness';
import { header } from './support/test-receiver';

describe('replay from a cursor re-delivers from there', () => {
  const fixture = notifierWithReceiver({ settings: { maxAttempts: 2 } });

  it('re-delivers, in order and with the same event ids, every event after the cursor of a delivery body', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_replay', { url: receiver.url, eventTypes: ['task'] });
    const stream = new TaskStream(notifier.events, 'ws_replay');
    for (let i = 0; i < 5; i += 1) await stream.append();
    await eventually(() => receiver.accepted.length === 5, 'the first deliveries');
    const first = receiver.accepted.map((r) => ({ id: header(r, EVENT_ID_HEADER), cursor: r.body.cursor }));

    const view = await notifier.service.replay('ws_replay', webhook.id, first[1].cursor);
    expect(view.replayRequestedAt).not.toBeNull();
    await eventually(() => receiver.accepted.length === 8, 'the replayed deliveries');
    expect(receiver.accepted.slice(5).map((r) => header(r, EVENT_ID_HEADER))).toEqual(first.slice(2).map((e) => e.id));

    // Live delivery goes on after the replay, once.
    await stream.append();
    await eventually(() => receiver.accepted.length === 9, 'the next live event');
    expect(receiver.accepted.map((r) => r.body.metadata.revision)).toEqual([0, 1, 2, 3, 4, 2, 3, 4, 5]);
  });

  it("replays events from before the webhook's registration from 'start', and closes the dead letters it covers", async () => {
    const { notifier, receiver } = fixture;
    const stream = new TaskStream(notifier.events, 'ws_replay');
    await stream.append();
    const { webhook } = await notifier.service.register('ws_replay', { url: receiver.url, eventTypes: ['task'] });
    receiver.respondWith(() => 500);
    await stream.append();
    await eventually(
      async () => (await notifier.service.deadLetters('ws_replay', webhook.id)).items.length === 1,
      'a dead letter',
    );
    expect(receiver.accepted).toHaveLength(0);

    receiver.respondWith(() => 200);
    await notifier.service.replay('ws_replay', webhook.id, 'start');
    await eventually(() => receiver.accepted.length === 2, 'both events');
    expect(receiver.accepted.map((r) => r.body.metadata.revision)).toEqual([0, 1]);
    await eventually(
      async () => (await notifier.service.deadLetters('ws_replay', webhook.id)).items[0].status === 'replayed',
      'the dead letter closed by the replay',
    );
  });

  it('refuses a cursor the event store did not produce', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_replay', { url: receiver.url, eventTypes: ['task'] });
    await expect(notifier.service.replay('ws_replay', webhook.id, 'not-a-position')).rejects.toMatchObject({
      constructor: ValidationError,
      issues: [{ path: 'fromCursor', message: 'not a cursor of this event store' }],
    });
  });
});
