import {
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  signatureHeader,
  verifyWebhookSignature,
} from '@lomo/webhooks';
import { TaskStream } from './support/events';
import { eventually, startNotifier, type NotifierHarness } from './support/notifier-harness';
import { header, TestReceiver } from './support/test-receiver';

const TOLERANCE_SECONDS = 300;

describe('webhook signatures: a receiving server verifies Lomo-Signature over the raw body', () => {
  let notifier: NotifierHarness;
  let receiver: TestReceiver;
  let secret: string;

  beforeAll(async () => {
    notifier = await startNotifier();
    // The receiver an integrator would write: 400 unless a signature verifies with its secret.
    receiver = await TestReceiver.start((request) =>
      verifyWebhookSignature(header(request, SIGNATURE_HEADER), request.rawBody, [secret], TOLERANCE_SECONDS).valid
        ? 200
        : 400,
    );
    const registered = await notifier.service.register('ws_sig', { url: receiver.url, eventTypes: ['task'] });
    secret = registered.secret;
  });

  afterAll(async () => {
    await notifier.close();
    await receiver.close();
  });

  it('signs each delivery with the secret returned once at registration, with the event id and type in headers', async () => {
    expect(secret).toMatch(/^whsec_/);
    const stream = new TaskStream(notifier.events, 'ws_sig');
    await stream.append();
    await eventually(() => receiver.requests.length === 1, 'the delivery');

    const [delivery] = receiver.requests;
    expect(delivery.status).toBe(200);
    expect(header(delivery, SIGNATURE_HEADER)).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(header(delivery, EVENT_ID_HEADER)).toBe(delivery.body.metadata.eventId);
    expect(header(delivery, EVENT_TYPE_HEADER)).toBe('ChecklistItemChanged');
    expect(delivery.body).toMatchObject({
      type: 'ChecklistItemChanged',
      metadata: { streamId: stream.id, revision: 0, workspaceId: 'ws_sig' },
      cursor: delivery.body.metadata.globalPosition,
    });
  });

  it('rejects a tampered body, a signature made with a wrong secret, and an old timestamp', async () => {
    const [delivery] = receiver.accepted;
    const signature = header(delivery, SIGNATURE_HEADER) ?? '';
    const post = (rawBody: string, sig: string) =>
      fetch(receiver.url, { method: 'POST', body: rawBody, headers: { [SIGNATURE_HEADER]: sig } }).then(
        (r) => r.status,
      );

    const tampered = delivery.rawBody.replace('in_progress', 'done');
    expect(tampered).not.toBe(delivery.rawBody);
    expect(await post(tampered, signature)).toBe(400);
    expect(
      await post(delivery.rawBody, signatureHeader(delivery.rawBody, ['whsec_not_the_right_one'], new Date())),
    ).toBe(400);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    expect(await post(delivery.rawBody, signatureHeader(delivery.rawBody, [secret], anHourAgo))).toBe(400);
    // The untouched original still verifies: the three refusals come from the changes alone.
    expect(await post(delivery.rawBody, signature)).toBe(200);

    expect(verifyWebhookSignature(signature, tampered, [secret], TOLERANCE_SECONDS)).toEqual({
      valid: false,
      reason: 'no_matching_signature',
    });
    expect(
      verifyWebhookSignature(
        signature,
        delivery.rawBody,
        [secret],
        TOLERANCE_SECONDS,
        new Date(Date.now() + 3_600_000),
      ),
    ).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
    expect(verifyWebhookSignature(undefined, delivery.rawBody, [secret])).toEqual({
      valid: false,
      reason: 'missing_header',
    });
  });

  it('signs with a secret the caller supplied at registration', async () => {
    const own = await TestReceiver.start();
    try {
      const chosen = 'my-own-secret-0123456789';
      const registered = await notifier.service.register('ws_own', {
        url: own.url,
        eventTypes: ['ChecklistItemChanged'],
        secret: chosen,
      });
      expect(registered.secret).toBe(chosen);
      await new TaskStream(notifier.events, 'ws_own').append();
      await eventually(() => own.requests.length === 1, 'the delivery');
      const [delivery] = own.requests;
      expect(verifyWebhookSignature(header(delivery, SIGNATURE_HEADER), delivery.rawBody, [chosen]).valid).toBe(true);
    } finally {
      await own.close();
    }
  });
});
