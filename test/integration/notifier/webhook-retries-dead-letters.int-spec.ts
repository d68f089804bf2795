import { DeadLetterNotOpenError, EVENT_ID_HEADER } from '@lomo/webhooks';
import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver } from './support/notifier-harness';
import { header } from './support/test-receiver';

describe('webhook retries: a failing receiver is retried, then dead-lettered, then redelivered through the service', () => {
  const fixture = notifierWithReceiver({ settings: { maxAttempts: 3, requestTimeoutMs: 300 } });

  it('retries with the same event id, dead-letters after N attempts, and redelivers on request', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_retry', { url: receiver.url, eventTypes: ['task'] });
    receiver.respondWith(() => 503);
    const stream = new TaskStream(notifier.events, 'ws_retry');
    await stream.append();

    const open = async () => (await notifier.service.deadLetters('ws_retry', webhook.id)).items;
    await eventually(async () => (await open()).length === 1, 'a dead letter');
    const [deadLetter] = await open();
    expect(deadLetter).toMatchObject({
      status: 'open',
      attempts: 3,
      streamId: stream.id,
      revision: 0,
      lastError: 'HTTP 503',
    });
    expect(receiver.requests).toHaveLength(3);
    expect(new Set(receiver.requests.map((r) => header(r, EVENT_ID_HEADER)))).toEqual(new Set([deadLetter.eventId]));
    expect(receiver.requests.map((r) => header(r, 'Lomo-Delivery-Attempt'))).toEqual(['1', '2', '3']);

    receiver.respondWith(() => 200);
    const requested = await notifier.service.redeliver('ws_retry', deadLetter.id);
    expect(requested.status).toBe('redelivery_requested');
    await expect(notifier.service.redeliver('ws_retry', deadLetter.id)).rejects.toBeInstanceOf(DeadLetterNotOpenError);

    await eventually(async () => (await open())[0].status === 'redelivered', 'the dead letter redelivered');
    expect(receiver.accepted.map((r) => header(r, EVENT_ID_HEADER))).toEqual([deadLetter.eventId]);
    expect((await open())[0].resolvedAt).not.toBeNull();
  });

  it('a redelivery that fails again reopens the same dead letter with the attempts added up', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_retry', { url: receiver.url, eventTypes: ['task'] });
    receiver.respondWith(() => 500);
    await new TaskStream(notifier.events, 'ws_retry').append();
    const first = async () => (await notifier.service.deadLetters('ws_retry', webhook.id)).items[0];
    await eventually(async () => (await first())?.status === 'open', 'a dead letter');

    const { id } = await first();
    await notifier.service.redeliver('ws_retry', id);
    await eventually(
      async () => (await first()).attempts === 6 && (await first()).status === 'open',
      'the dead letter reopened',
    );
    expect((await notifier.service.deadLetters('ws_retry', webhook.id)).items).toHaveLength(1);
  });

  it('duplicates carry the same event id: a receiver that processed a delivery but answered too late gets it again', async () => {
    const { notifier, receiver } = fixture;
    await notifier.service.register('ws_dup', { url: receiver.url, eventTypes: ['ChecklistItemChanged'] });
    let answered = 0;
    // The first answer comes after the notifier's 300 ms timeout; the retry is answered at once.
    receiver.respondWith(() => (answered++ === 0 ? { delayMs: 500 } : 200));
    await new TaskStream(notifier.events, 'ws_dup').append();

    await eventually(() => receiver.requests.length === 2, 'the retried delivery');
    const [late, retry] = receiver.requests;
    expect(header(retry, EVENT_ID_HEADER)).toBe(header(late, EVENT_ID_HEADER));
    expect(retry.rawBody).toBe(late.rawBody);
    expect(header(retry, 'Lomo-Delivery-Attempt')).toBe('2');
  });
});
