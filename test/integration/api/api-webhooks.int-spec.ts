import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@lomo/bus/testing';
import { verifyWebhookSignature } from '@lomo/webhooks';
import { startStandaloneApi, type RunningApi } from './support/standalone-api';

interface Delivery {
  eventId: string;
  eventType: string;
  signatureValid: boolean;
  answered: number;
}

/** A receiving integration: verifies every signature, answers 500 until told otherwise. */
async function startReceiver(secret: () => string) {
  const deliveries: Delivery[] = [];
  let status = 500;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      deliveries.push({
        eventId: String(req.headers['lomo-event-id']),
        eventType: String(req.headers['lomo-event-type']),
        signatureValid: verifyWebhookSignature(req.headers['lomo-signature'] as string, body, [secret()]).valid,
        answered: status,
      });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries,
    succeed: () => (status = 204),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('webhooks through the API: retried, dead-lettered, redelivered; signed; same event id on every copy', () => {
  let api: RunningApi;
  let secret = '';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver(() => secret);
    api = await startStandaloneApi({
      LOMO_WEBHOOK_MAX_ATTEMPTS: '3',
      LOMO_WEBHOOK_BACKOFF_INITIAL_MS: '20',
      LOMO_WEBHOOK_BACKOFF_MAX_MS: '50',
      LOMO_WEBHOOK_POLL_MS: '50',
      LOMO_WEBHOOK_RECONCILE_MS: '50',
      LOMO_WEBHOOK_HTTP_ALLOWLIST: '127.0.0.1',
    });
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
  });

  it('a failing receiver is retried, then dead-lettered, then redelivered through the API', async () => {
    const registered = await api.gql<{ registerWebhook: { webhook: { id: string }; secret: string } }>(
      api.devToken,
      'mutation($url: String!) { registerWebhook(url: $url, eventTypes: ["TaskCreated"]) { webhook { id } secret } }',
      { url: receiver.url },
    );
    expect(registered.errors).toBeUndefined();
    secret = registered.data!.registerWebhook.secret;
    const webhookId = registered.data!.registerWebhook.webhook.id;

    await api.gql(api.devToken, 'mutation { sendMessage(text: "Please take a note: water the plant") { messageId } }');

    type Page = { webhookDeadLetters: { items: { id: string; eventId: string; status: string; attempts: number }[] } };
    const deadLetters = async () =>
      (
        await api.gql<Page>(
          api.devToken,
          'query($id: ID!) { webhookDeadLetters(webhookId: $id) { items { id eventId status attempts } } }',
          {
            id: webhookId,
          },
        )
      ).data?.webhookDeadLetters.items ?? [];
    await waitFor(
      async () => (await deadLetters()).some((d) => d.status === 'open'),
      'the event to be dead-lettered',
      30_000,
    );
    const [letter] = await deadLetters();
    expect(letter.attempts).toBe(3);
    expect(receiver.deliveries.map((d) => [d.eventType, d.answered])).toEqual([
      ['TaskCreated', 500],
      ['TaskCreated', 500],
      ['TaskCreated', 500],
    ]);

    receiver.succeed();
    const redelivered = await api.gql<{ redeliverDeadLetter: { status: string } }>(
      api.devToken,
      'mutation($id: ID!) { redeliverDeadLetter(deadLetterId: $id) { status } }',
      { id: letter.id },
    );
    expect(redelivered.errors).toBeUndefined();
    await waitFor(() => receiver.deliveries.some((d) => d.answered === 204), 'the redelivery', 30_000);

    // Every copy is the same event (receivers dedupe by Lomo-Event-Id), and every one is signed.
    expect(new Set(receiver.deliveries.map((d) => d.eventId))).toEqual(new Set([letter.eventId]));
    expect(receiver.deliveries.every((d) => d.signatureValid)).toBe(true);
  });

  it('another workspace cannot see or act on these webhooks (not found)', async () => {
    const created = await api.tokens(['create', '--workspace', 'other_ws', '--user', 'intruder']);
    const token = /lomo_[A-Za-z0-9_-]+/.exec(created.stdout)?.[0];
    expect(token).toBeDefined();
    const listed = await api.gql<{ webhooks: unknown[] }>(token, '{ webhooks { id } }');
    expect(listed.data?.webhooks).toEqual([]);
    const mine = await api.gql<{ webhooks: { id: string }[] }>(api.devToken, '{ webhooks { id } }');
    const deleted = await api.gql(token, 'mutation($id: ID!) { deleteWebhook(id: $id) }', {
      id: mine.data!.webhooks[0].id,
    });
    expect(deleted.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
