import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { SecretKeyMismatchError, SecretUnreadableError } from './webhook-errors';

/**
 * Reversible, authenticated encryption of short secrets at rest (webhook signing secrets: the
 * signer needs them back, so they cannot be hashed). AES-256-GCM, a fresh random 12-byte IV per
 * value, stored as one string:
 *
 *     enc:v1:<keyId>:<iv>:<tag>:<ciphertext>        (iv, tag, ciphertext in base64url)
 *
 * - `keyId` is a short hash of the key, so a value sealed under another key is refused with a
 *   SecretKeyMismatchError instead of failing as if it were altered.
 * - The version, the key id and a caller-chosen `context` (what the secret belongs to) are
 *   authenticated as associated data: a value altered in any part, or copied to another context,
 *   fails with SecretUnreadableError and never decrypts to garbage.
 */
export class SecretBox {
  static readonly PREFIX = 'enc:';
  static readonly VERSION = 'v1';
  static readonly KEY_BYTES = 32;
  static readonly IV_BYTES = 12;
  static readonly TAG_BYTES = 16;

  /** Short hash of the key: names it in stored values and logs, reveals nothing of it. */
  readonly keyId: string;
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== SecretBox.KEY_BYTES) throw new RangeError(`A SecretBox key is ${SecretBox.KEY_BYTES} bytes`);
    this.key = Buffer.from(key);
    this.keyId = createHash('sha256').update('lomo secret-box key id\0').update(key).digest('hex').slice(0, 8);
  }

  /** True for values in the sealed format (of any version); anything else was stored as it is. */
  static isSealed(stored: string): boolean {
    return stored.startsWith(SecretBox.PREFIX);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(SecretBox.IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: SecretBox.TAG_BYTES });
    cipher.setAAD(associatedData(SecretBox.VERSION, this.keyId, context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const fields = [SecretBox.VERSION, this.keyId, iv, cipher.getAuthTag(), ciphertext];
    return SecretBox.PREFIX + fields.map((f) => (typeof f === 'string' ? f : f.toString('base64url'))).join(':');
  }

  /** The plaintext of a value `seal` made with this key and the same `context`; throws otherwise. */
  open(stored: string, context: string): string {
    if (!SecretBox.isSealed(stored)) throw new SecretUnreadableError('malformed');
    const fields = stored.slice(SecretBox.PREFIX.length).split(':');
    if (fields[0] !== SecretBox.VERSION) {
      throw new SecretUnreadableError(/^v\d+$/.test(fields[0]) ? 'unsupported_version' : 'malformed');
    }
    if (fields.length !== 5) throw new SecretUnreadableError('malformed');
    const [version, keyId, ivText, tagText, ciphertextText] = fields;
    if (keyId !== this.keyId) throw new SecretKeyMismatchError(this.keyId, keyId);
    const iv = base64url(ivText);
    const tag = base64url(tagText);
    const ciphertext = base64url(ciphertextText);
    if (iv?.length !== SecretBox.IV_BYTES || tag?.length !== SecretBox.TAG_BYTES || ciphertext === undefined) {
      throw new SecretUnreadableError('malformed');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: SecretBox.TAG_BYTES });
    decipher.setAAD(associatedData(version, keyId, context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError('authentication_failed');
    }
  }
}

const associatedData = (version: string, keyId: string, context: string) =>
  Buffer.from(`${SecretBox.PREFIX}${version}:${keyId}\0${context}`, 'utf8');

/** Strict: Buffer.from silently skips characters outside the alphabet. */
const base64url = (text: string): Buffer | undefined =>
  /^[A-Za-z0-9_-]*$/.test(text) ? Buffer.from(text, 'base64url') : undefined;
