import {
  HttpWebhookTransport,
  WebhookHostUnresolvedError,
  WebhookTargetForbiddenError,
  type DeliveryOutcome,
  type WebhookRequest,
  type WebhookTransport,
} from '@lomo/webhooks';
import { Collections, type StreamDocument, type WebhookDocument } from '@lomo/webhooks/testing';
import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver, settle } from './support/notifier-harness';
import { TestReceiver } from './support/test-receiver';

const HOST = 'hooks.example.test';
const URL = `https://${HOST}/hooks`;
/** A public address the fake DNS answers with; nothing ever connects to it (see LoopbackNetwork). */
const PUBLIC = '93.184.216.34';

/**
 * The test's network: every request the engine hands to the transport goes, through the real
 * HttpWebhookTransport, to the loopback test receiver instead of the (fake-resolved) public
 * address, and is recorded with the address the engine pinned. So the receiver's request count
 * shows what production would have sent, and no traffic leaves 127.0.0.1.
 */
class LoopbackNetwork implements WebhookTransport {
  readonly sent: WebhookRequest[] = [];
  receiver: TestReceiver | undefined;
  private readonly http = new HttpWebhookTransport();

  send(request: WebhookRequest, timeoutMs: number): Promise<DeliveryOutcome> {
    this.sent.push(request);
    if (this.receiver === undefined) throw new Error('no receiver yet');
    return this.http.send({ ...request, url: this.receiver.url, address: undefined }, timeoutMs);
  }
}

describe('a webhook whose host resolves to 127.0.0.1 or 10.0.0.1 is refused in production at registration and at delivery', () => {
  const network = new LoopbackNetwork();
  const fixture = notifierWithReceiver({
    settings: { production: true, httpAllowlist: [], maxAttempts: 2 },
    transport: network,
  });

  beforeEach(() => {
    network.sent.length = 0;
    network.receiver = fixture.receiver;
  });

  it.each(['127.0.0.1', '10.0.0.1'])(
    'registration: a host resolving to %s is refused with WEBHOOK_TARGET_FORBIDDEN and nothing is stored',
    async (address) => {
      const { notifier } = fixture;
      notifier.resolver.set(HOST, address);
      const error = await notifier.service
        .register('ws_target', { url: URL, eventTypes: ['task'] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookTargetForbiddenError);
      expect(error).toMatchObject({ code: 'WEBHOOK_TARGET_FORBIDDEN', retriable: false, host: HOST, address });
      expect(await notifier.service.list('ws_target')).toEqual([]);
      expect(await notifier.documents.count(Collections.webhooks, {})).toBe(0);
    },
  );

  it('registration: a host that does not resolve is a retriable WEBHOOK_HOST_UNRESOLVED and nothing is stored', async () => {
    const { notifier } = fixture;
    notifier.resolver.fail(HOST, 'EAI_AGAIN');
    const error = await notifier.service
      .register('ws_target', { url: URL, eventTypes: ['task'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookHostUnresolvedError);
    expect(error).toMatchObject({ code: 'WEBHOOK_HOST_UNRESOLVED', retriable: true, dnsCode: 'EAI_AGAIN' });
    expect(await notifier.documents.count(Collections.webhooks, {})).toBe(0);
  });

  it('delivery to a host that still resolves to a public address is sent, pinned to that address', async () => {
    const { notifier, receiver } = fixture;
    notifier.resolver.set(HOST, PUBLIC);
    await notifier.service.register('ws_target', { url: URL, eventTypes: ['task'] });
    await new TaskStream(notifier.events, 'ws_target').append();

    await eventually(() => receiver.accepted.length === 1, 'the delivery');
    expect(network.sent.map((r) => [r.url, r.address])).toEqual([[URL, { address: PUBLIC, family: 4 }]]);
  });

  it.each(['127.0.0.1', '10.0.0.1'])(
    'delivery: a host that resolved to a public address at registration and to %s at delivery (rebinding) is refused; the dead letter says why, nothing is sent',
    async (address) => {
      const { notifier, receiver } = fixture;
      notifier.resolver.set(HOST, PUBLIC);
      const { webhook } = await notifier.service.register('ws_target', { url: URL, eventTypes: ['task'] });
      notifier.resolver.set(HOST, address);
      const stream = new TaskStream(notifier.events, 'ws_target');
      await stream.append();

      const deadLetters = async () => (await notifier.service.deadLetters('ws_target', webhook.id)).items;
      await eventually(async () => (await deadLetters()).length === 1, 'a dead letter');
      // Refusals are failed attempts: retried, then dead-lettered after maxAttempts (2 here).
      expect(await deadLetters()).toMatchObject([
        { status: 'open', attempts: 2, streamId: stream.id, revision: 0, lastError: `target_forbidden: ${address}` },
      ]);
      const state = await notifier.documents.get<StreamDocument>(Collections.streams, `${webhook.id}|${stream.id}`);
      expect(state).toMatchObject({ doneRevision: -1, lastError: `target_forbidden: ${address}` });
      await settle();
      expect(network.sent).toEqual([]);
      expect(receiver.requests).toEqual([]);
      // Nothing else changed: the registration is as it was (active, same URL), not disabled.
      const stored = await notifier.documents.get<WebhookDocument>(Collections.webhooks, webhook.id);
      expect(stored).toMatchObject({ status: 'active', url: URL, disabledReason: null });

      // Once the name points outside again, a redelivery goes through, pinned to the public address.
      notifier.resolver.set(HOST, PUBLIC);
      const [deadLetter] = await deadLetters();
      await notifier.service.redeliver('ws_target', deadLetter.id);
      await eventually(() => receiver.accepted.length === 1, 'the redelivery');
      expect(network.sent.map((r) => r.address?.address)).toEqual([PUBLIC]);
    },
  );
});
