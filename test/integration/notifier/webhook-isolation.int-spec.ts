import { streams } from '@lomo/contracts';
import { DeadLetterNotFoundError, WebhookNotFoundError } from '@lomo/webhooks';
import { TaskStream, userMessageReceived } from './support/events';
import { eventually, settle, startNotifier, type NotifierHarness } from './support/notifier-harness';
import { TestReceiver } from './support/test-receiver';

describe("isolation: a webhook of workspace B never receives workspace A's events", () => {
  let notifier: NotifierHarness;
  let receiverA: TestReceiver;
  let receiverB: TestReceiver;

  beforeAll(async () => {
    notifier = await startNotifier({ settings: { maxAttempts: 1 } });
    receiverA = await TestReceiver.start();
    receiverB = await TestReceiver.start();
  });

  afterAll(async () => {
    await notifier.close();
    await receiverA.close();
    await receiverB.close();
  });

  it('delivers to each workspace only its own events, for types and categories alike', async () => {
    const selection = ['task', 'UserMessageReceived'];
    // Registered by u1 of each workspace: u1's main line is theirs to receive (event-selection.ts).
    const u1 = { tokenId: 't-u1', userId: 'u1', kind: 'person' as const };
    await notifier.service.register('ws_a', { url: receiverA.url, eventTypes: selection }, u1);
    await notifier.service.register('ws_b', { url: receiverB.url, eventTypes: selection }, u1);

    const taskA = new TaskStream(notifier.events, 'ws_a');
    const taskB = new TaskStream(notifier.events, 'ws_b');
    for (let i = 0; i < 3; i += 1) {
      await taskA.append();
      await notifier.events.append(streams.main('ws_a', 'u1'), [userMessageReceived('ws_a', 'u1', `a ${i}`)], 'any');
    }
    await taskB.append();
    await notifier.events.append(streams.main('ws_b', 'u1'), [userMessageReceived('ws_b', 'u1', 'b')], 'any');

    await eventually(() => receiverA.accepted.length === 6 && receiverB.accepted.length === 2, 'both deliveries');
    await settle();
    expect(new Set(receiverB.requests.map((r) => r.body.metadata.workspaceId))).toEqual(new Set(['ws_b']));
    expect(new Set(receiverA.requests.map((r) => r.body.metadata.workspaceId))).toEqual(new Set(['ws_a']));
    expect(receiverB.requests.map((r) => r.body.metadata.streamId).sort()).toEqual(
      [streams.main('ws_b', 'u1'), taskB.id].sort(),
    );
  });

  it("answers workspace B about workspace A's webhook and dead letters exactly as about absent ones", async () => {
    const failing = await TestReceiver.start(() => 500);
    try {
      const { webhook } = await notifier.service.register('ws_a', { url: failing.url, eventTypes: ['task'] });
      await new TaskStream(notifier.events, 'ws_a').append();
      await eventually(
        async () => (await notifier.service.deadLetters('ws_a', webhook.id)).items.length === 1,
        'a dead letter',
      );
      const [deadLetter] = (await notifier.service.deadLetters('ws_a', webhook.id)).items;

      const asB = notifier.service;
      await expect(asB.get('ws_b', webhook.id)).rejects.toBeInstanceOf(WebhookNotFoundError);
      await expect(asB.delete('ws_b', webhook.id)).rejects.toBeInstanceOf(WebhookNotFoundError);
      await expect(asB.replay('ws_b', webhook.id, 'start')).rejects.toBeInstanceOf(WebhookNotFoundError);
      await expect(asB.rotateSecret('ws_b', webhook.id)).rejects.toBeInstanceOf(WebhookNotFoundError);
      await expect(asB.deadLetters('ws_b', webhook.id)).rejects.toBeInstanceOf(WebhookNotFoundError);
      await expect(asB.redeliver('ws_b', deadLetter.id)).rejects.toBeInstanceOf(DeadLetterNotFoundError);
      await expect(asB.skip('ws_b', deadLetter.id)).rejects.toBeInstanceOf(DeadLetterNotFoundError);
      expect((await asB.list('ws_b')).map((w) => w.workspaceId)).toEqual(['ws_b']);
      // Nothing of A's changed.
      expect((await notifier.service.deadLetters('ws_a', webhook.id)).items[0].status).toBe('open');
      expect((await notifier.service.get('ws_a', webhook.id)).status).toBe('active');
    } finally {
      await failing.close();
    }
  });
});
