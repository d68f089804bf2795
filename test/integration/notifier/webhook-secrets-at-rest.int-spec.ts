import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { SecretBox, SIGNATURE_HEADER, verifyWebhookSignature } from '@lomo/webhooks';
import { Collections, sealEntries, type StreamDocument, type WebhookDocument } from '@lomo/webhooks/testing';
import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver, settle, type NotifierHarness } from './support/notifier-harness';
import { header } from './support/test-receiver';

const SEALED = /^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/;

const storedWebhook = async (notifier: NotifierHarness, id: string) => {
  const doc = await notifier.documents.get<WebhookDocument>(Collections.webhooks, id);
  if (doc === undefined) throw new Error(`no stored webhook ${id}`);
  return doc;
};

/** Every byte the notifier's SQLite files hold (the database and its write-ahead log). */
const notifierFiles = (notifier: NotifierHarness): string =>
  readdirSync(notifier.dir)
    .filter((f) => f.startsWith('notifier.sqlite'))
    .map((f) => readFileSync(path.join(notifier.dir, f), 'latin1'))
    .join('');

/** A webhook document as the notifier wrote it before secrets were encrypted. */
async function storeLegacyWebhook(
  notifier: NotifierHarness,
  workspaceId: string,
  url: string,
  secret: string,
  secretBox?: SecretBox,
): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const secrets = [{ id: randomUUID(), secret, createdAt: now, expiresAt: null }];
  const doc: WebhookDocument = {
    _id: id,
    workspaceId,
    url,
    eventTypes: ['task'],
    description: null,
    status: 'active',
    disabledReason: null,
    secrets: secretBox === undefined ? secrets : sealEntries(secretBox, id, secrets),
    startPosition: (await notifier.events.headPosition()) ?? null,
    replay: null,
    createdAt: now,
    updatedAt: now,
  };
  await notifier.documents.upsert(Collections.webhooks, doc, { expectedVersion: 0 });
  notifier.engine.nudge();
  await eventually(() => notifier.engine.activeWebhookIds().includes(id), 'the engine to pick the webhook up');
  return id;
}

describe('webhook signing secrets are stored encrypted', () => {
  const fixture = notifierWithReceiver();

  it('keeps the secret returned at registration out of the stored document, and signs with it', async () => {
    const { notifier, receiver } = fixture;
    const { webhook, secret } = await notifier.service.register('ws_rest', { url: receiver.url, eventTypes: ['task'] });

    const stored = await storedWebhook(notifier, webhook.id);
    expect(stored.secrets).toHaveLength(1);
    expect(stored.secrets[0].secret).toMatch(SEALED);
    expect(stored.secrets[0].secret.split(':')[2]).toBe(notifier.secretBox.keyId);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(JSON.stringify(await notifier.service.get('ws_rest', webhook.id))).not.toContain(secret);

    await new TaskStream(notifier.events, 'ws_rest').append();
    await eventually(() => receiver.accepted.length === 1, 'the delivery');
    const [delivery] = receiver.accepted;
    expect(verifyWebhookSignature(header(delivery, SIGNATURE_HEADER), delivery.rawBody, [secret]).valid).toBe(true);
    // Nothing the store wrote to disk holds it: not the database, not its write-ahead log.
    expect(notifierFiles(notifier)).not.toContain(secret);
  });

  it('also for a secret the caller chose', async () => {
    const { notifier } = fixture;
    const chosen = 'my-chosen-secret-0123456789';
    const { webhook } = await notifier.service.register('ws_rest', {
      url: fixture.receiver.url,
      eventTypes: ['task'],
      secret: chosen,
    });
    expect((await storedWebhook(notifier, webhook.id)).secrets[0].secret).toMatch(SEALED);
    expect(notifierFiles(notifier)).not.toContain(chosen);
  });

  it('delivers for a legacy document with a plain secret, and encrypts it at the next rotation', async () => {
    const { notifier, receiver } = fixture;
    const legacySecret = 'whsec_legacy_plain_0123456789abcdef';
    const id = await storeLegacyWebhook(notifier, 'ws_legacy', receiver.url, legacySecret);
    const stream = new TaskStream(notifier.events, 'ws_legacy');

    await stream.append();
    await eventually(() => receiver.accepted.length === 1, 'a delivery signed with the plain secret');
    const before = receiver.accepted[0];
    expect(verifyWebhookSignature(header(before, SIGNATURE_HEADER), before.rawBody, [legacySecret]).valid).toBe(true);

    const rotated = await notifier.service.rotateSecret('ws_legacy', id);
    const stored = await storedWebhook(notifier, id);
    expect(stored.secrets.map((s) => s.secret)).toEqual([expect.stringMatching(SEALED), expect.stringMatching(SEALED)]);
    expect(JSON.stringify(stored)).not.toContain(legacySecret);
    expect(JSON.stringify(stored)).not.toContain(rotated.secret);

    // The previous (now sealed) secret keeps signing through its grace period, next to the new one.
    await stream.append();
    await eventually(() => receiver.accepted.length === 2, 'a delivery after the rotation');
    const after = receiver.accepted[1];
    const signature = header(after, SIGNATURE_HEADER);
    expect(signature?.match(/v1=/g)).toHaveLength(2);
    expect(verifyWebhookSignature(signature, after.rawBody, [legacySecret]).valid).toBe(true);
    expect(verifyWebhookSignature(signature, after.rawBody, [rotated.secret]).valid).toBe(true);
  });

  it('encrypts a legacy plain secret at any other update of its document too', async () => {
    const { notifier, receiver } = fixture;
    const legacySecret = 'whsec_legacy_plain_update_0123456789';
    const id = await storeLegacyWebhook(notifier, 'ws_legacy2', receiver.url, legacySecret);
    await notifier.service.setEnabled('ws_legacy2', id, false);
    const stored = await storedWebhook(notifier, id);
    expect(stored.status).toBe('disabled');
    expect(stored.secrets[0].secret).toMatch(SEALED);
    expect(JSON.stringify(stored)).not.toContain(legacySecret);
  });

  it('sends nothing, counts no attempt and dead-letters nothing while a secret was sealed under another key', async () => {
    const { notifier, receiver } = fixture;
    const otherKey = new SecretBox(randomBytes(32));
    const id = await storeLegacyWebhook(notifier, 'ws_wrong_key', receiver.url, 'whsec_other_key_0123456789', otherKey);
    const stream = new TaskStream(notifier.events, 'ws_wrong_key');
    for (let i = 0; i < 3; i += 1) await stream.append();

    await eventually(async () => {
      const state = await notifier.documents.get<StreamDocument>(Collections.streams, `${id}|${stream.id}`);
      return state?.targetRevision === 2;
    }, 'the scan to record the stream');
    await settle(300);
    expect(receiver.requests).toEqual([]);
    const state = await notifier.documents.get<StreamDocument>(Collections.streams, `${id}|${stream.id}`);
    expect(state).toMatchObject({ doneRevision: -1, attempts: 0, blocked: null });
    expect((await notifier.service.deadLetters('ws_wrong_key', id)).items).toEqual([]);
  });
});
