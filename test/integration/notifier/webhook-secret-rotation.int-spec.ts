import { FakeClock } from '@lomo/testing';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '@lomo/webhooks';
import { TaskStream } from './support/events';
import { eventually, notifierWithReceiver } from './support/notifier-harness';
import { header } from './support/test-receiver';

const GRACE_SECONDS = 3_600;

describe('secret rotation: both signatures are present while the previous secret is in its grace period', () => {
  const clock = new FakeClock('2026-11-30T12:00:00.000Z');
  const fixture = notifierWithReceiver({ clock, settings: { secretGraceSeconds: GRACE_SECONDS } }, 'all');

  it('signs with the new and the previous secret until the previous one expires, then with the new one only', async () => {
    const { notifier, receiver } = fixture;
    const oldSecret = 'old-secret-0123456789abcdef';
    const { webhook } = await notifier.service.register('ws_rot', {
      url: receiver.url,
      eventTypes: ['task'],
      secret: oldSecret,
    });
    const rotated = await notifier.service.rotateSecret('ws_rot', webhook.id);
    const newSecret = rotated.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.previousSecretsExpireAt).toBe('2026-11-30T13:00:00.000Z');
    expect(rotated.webhook.secrets.map((s) => s.expiresAt)).toEqual(['2026-11-30T13:00:00.000Z', null]);
    expect(JSON.stringify(await notifier.service.list('ws_rot'))).not.toContain(newSecret);

    const stream = new TaskStream(notifier.events, 'ws_rot');
    await stream.append();
    await eventually(() => receiver.requests.length === 1, 'a delivery during the rotation');
    const during = receiver.requests[0];
    const signature = header(during, SIGNATURE_HEADER) ?? '';
    expect(signature.match(/v1=/g)).toHaveLength(2);
    const verify = (secret: string) =>
      verifyWebhookSignature(signature, during.rawBody, [secret], 300, clock.now()).valid;
    expect(verify(oldSecret)).toBe(true);
    expect(verify(newSecret)).toBe(true);

    clock.advance((GRACE_SECONDS + 1) * 1000);
    expect((await notifier.service.get('ws_rot', webhook.id)).secrets).toHaveLength(1);
    await stream.append();
    await eventually(() => receiver.requests.length === 2, 'a delivery after the grace period');
    const after = receiver.requests[1];
    const afterSignature = header(after, SIGNATURE_HEADER) ?? '';
    expect(afterSignature.match(/v1=/g)).toHaveLength(1);
    expect(verifyWebhookSignature(afterSignature, after.rawBody, [oldSecret], 300, clock.now()).valid).toBe(false);
    expect(verifyWebhookSignature(afterSignature, after.rawBody, [newSecret], 300, clock.now()).valid).toBe(true);
  });
});
