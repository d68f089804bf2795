import { randomBytes } from 'node:crypto';
import { LomoError } from '@lomo/contracts';
import { SecretBox } from './secret-box';
import { SecretKeyMismatchError, SecretUnreadableError } from './webhook-errors';

const box = new SecretBox(randomBytes(32));
const context = 'webhook:w1:secret:s1';
const secret = 'whsec_0123456789abcdefghijklmnop';

/** `stored` with field `index` (0 = version ... 4 = ciphertext) changed by `change`. */
function alter(stored: string, index: number, change: (bytes: Buffer) => void): string {
  const fields = stored.slice(SecretBox.PREFIX.length).split(':');
  const bytes = Buffer.from(fields[index], 'base64url');
  change(bytes);
  fields[index] = bytes.toString('base64url');
  return SecretBox.PREFIX + fields.join(':');
}

function failure(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('SecretBox: AES-256-GCM for secrets at rest', () => {
  it('round-trips, in the versioned format, without the plaintext in the stored value', () => {
    const stored = box.seal(secret, context);
    expect(stored).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(stored.split(':')[2]).toBe(box.keyId);
    expect(stored).not.toContain(secret);
    expect(box.open(stored, context)).toBe(secret);
    for (const other of ['', 'ünïcødé – 秘密', 'x'.repeat(256)])
      expect(box.open(box.seal(other, context), context)).toBe(other);
    expect(SecretBox.isSealed(stored)).toBe(true);
    expect(SecretBox.isSealed(secret)).toBe(false);
  });

  it('uses a fresh IV for every encryption, so equal secrets give unrelated values', () => {
    const values = Array.from({ length: 20 }, () => box.seal(secret, context));
    expect(new Set(values).size).toBe(values.length);
    expect(new Set(values.map((v) => v.split(':')[3])).size).toBe(values.length);
  });

  it('refuses an altered ciphertext, tag or IV, and a value moved to another context', () => {
    const stored = box.seal(secret, context);
    const flip = (bytes: Buffer) => {
      bytes[0] ^= 0x01;
    };
    for (const altered of [alter(stored, 4, flip), alter(stored, 3, flip), alter(stored, 2, flip)]) {
      const error = failure(() => box.open(altered, context));
      expect(error).toBeInstanceOf(SecretUnreadableError);
      expect(error).toMatchObject({ code: 'SECRET_UNREADABLE', retriable: false, reason: 'authentication_failed' });
    }
    expect(failure(() => box.open(stored, 'webhook:w2:secret:s1'))).toMatchObject({ reason: 'authentication_failed' });
  });

  it('refuses a value sealed under another key with a typed error naming both key ids, never the keys', () => {
    const key = randomBytes(32);
    const other = new SecretBox(key);
    const stored = other.seal(secret, context);
    const error = failure(() => box.open(stored, context));
    expect(error).toBeInstanceOf(SecretKeyMismatchError);
    expect(error).toBeInstanceOf(LomoError);
    expect(error).toMatchObject({
      code: 'SECRET_KEY_MISMATCH',
      retriable: false,
      details: { expectedKeyId: box.keyId, foundKeyId: other.keyId },
    });
    const text = `${(error as Error).message} ${JSON.stringify((error as LomoError).details)}`;
    expect(text).not.toContain(key.toString('base64'));
    expect(text).not.toContain(key.toString('base64url'));
    expect(text).not.toContain(key.toString('hex'));
    // The key id is part of what the tag authenticates: relabelling the value does not get it opened.
    const relabelled = stored.replace(`:${other.keyId}:`, `:${box.keyId}:`);
    expect(failure(() => box.open(relabelled, context))).toMatchObject({ reason: 'authentication_failed' });
    // The same key gives the same id, in another process too.
    expect(new SecretBox(Buffer.from(key)).keyId).toBe(other.keyId);
  });

  it('refuses malformed values and unknown versions, and keys that are not 32 bytes', () => {
    const stored = box.seal(secret, context);
    for (const bad of [secret, 'enc:', 'enc:v1', `${stored}:extra`, stored.replace(/:[^:]*$/, ':not base64!')]) {
      expect(failure(() => box.open(bad, context))).toMatchObject({ code: 'SECRET_UNREADABLE', reason: 'malformed' });
    }
    expect(failure(() => box.open(stored.replace('enc:v1:', 'enc:v2:'), context))).toMatchObject({
      reason: 'unsupported_version',
    });
    expect(() => new SecretBox(randomBytes(16))).toThrow(RangeError);
  });
});
