import { createHmac } from 'node:crypto';
import { signatureHeader, verifyWebhookSignature } from './webhook-signature';

const now = new Date('2026-11-30T12:00:00.000Z');
const t = Math.floor(now.getTime() / 1000);
const body = '{"type":"TaskCreated"}';

describe('Stripe-style webhook signatures', () => {
  it('is an HMAC-SHA256 over "<t>.<raw body>", one v1 per secret', () => {
    const expected = (secret: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signatureHeader(body, ['s1', 's2'], now)).toBe(`t=${t},v1=${expected('s1')},v1=${expected('s2')}`);
  });

  it('verifies with any one of the secrets, inside the tolerance either way', () => {
    const header = signatureHeader(body, ['old', 'new'], now);
    expect(verifyWebhookSignature(header, body, ['new'], 300, new Date(now.getTime() + 299_000))).toEqual({
      valid: true,
      timestamp: t,
    });
    expect(
      verifyWebhookSignature(header, Buffer.from(body), ['old'], 300, new Date(now.getTime() - 299_000)).valid,
    ).toBe(true);
    expect(verifyWebhookSignature(header, body, ['new'], 300, new Date(now.getTime() + 301_000))).toEqual({
      valid: false,
      reason: 'timestamp_out_of_tolerance',
    });
  });

  it('refuses malformed headers, and ignores unknown schemes', () => {
    const v1 = signatureHeader(body, ['s'], now).split(',')[1];
    for (const bad of ['garbage', `v1=${'0'.repeat(64)}`, `t=abc,${v1}`, `t=${t},t=${t},${v1}`, `t=${t}`]) {
      expect(verifyWebhookSignature(bad, body, ['s'], 300, now)).toEqual({ valid: false, reason: 'malformed_header' });
    }
    expect(verifyWebhookSignature(`t=${t},v2=abc,${v1}`, body, ['s'], 300, now).valid).toBe(true);
  });
});
