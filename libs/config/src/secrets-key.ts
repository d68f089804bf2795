import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '@lomo/contracts';
import type { LomoConfig } from './load-config';

/** AES-256: the key is 32 bytes. */
export const SECRETS_KEY_BYTES = 32;
/** Where a non-production run keeps the key it generated, inside LOMO_DATA_DIR. */
export const SECRETS_KEY_FILE = 'secrets.key';

const VARIABLE = 'LOMO_SECRETS_KEY';

/**
 * The key's bytes, or undefined unless `value` is exactly 32 bytes in base64 or base64url (padding
 * optional; surrounding whitespace, such as the newline of a key file, is ignored).
 */
export function decodeSecretsKey(value: string): Buffer | undefined {
  const text = value.trim();
  // Buffer.from skips characters outside the alphabet instead of failing: check the form first.
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  const key = Buffer.from(text, 'base64');
  return key.length === SECRETS_KEY_BYTES ? key : undefined;
}

export const SECRETS_KEY_FORMAT = `${SECRETS_KEY_BYTES} random bytes in base64 or base64url (openssl rand -base64 ${SECRETS_KEY_BYTES})`;

export interface SecretsKey {
  key: Buffer;
  /** `LOMO_SECRETS_KEY`, or the file a non-production run keeps in its data directory. */
  source: 'env' | 'file';
  file?: string;
  /** True when this call generated the file. */
  created: boolean;
}

/**
 * The key that encrypts stored secrets (webhook signing secrets). LOMO_SECRETS_KEY when set. Else
 * production stops with a ConfigError: a key made up on one pod could not decrypt what another
 * pod wrote, and would be lost with the pod. Elsewhere (development, tests, embedded runs) the key
 * is generated once into `$LOMO_DATA_DIR/secrets.key` (mode 0600) and read back at every start,
 * so a restart still decrypts; processes sharing the data directory share the key. The file is
 * never overwritten: losing it makes the secrets encrypted with it unreadable.
 */
export function loadSecretsKey(
  config: Pick<LomoConfig, 'LOMO_SECRETS_KEY' | 'NODE_ENV' | 'LOMO_DATA_DIR'>,
): SecretsKey {
  if (config.LOMO_SECRETS_KEY !== undefined) {
    const key = decodeSecretsKey(config.LOMO_SECRETS_KEY);
    if (key === undefined) throw configError(`must be ${SECRETS_KEY_FORMAT}`);
    return { key, source: 'env', created: false };
  }
  if (config.NODE_ENV === 'production') {
    throw configError(
      `required when NODE_ENV=production by the processes that hold webhooks (api, notifier, standalone): ${SECRETS_KEY_FORMAT}`,
    );
  }
  const file = path.join(config.LOMO_DATA_DIR, SECRETS_KEY_FILE);
  const kept = readKeyFile(file);
  if (kept !== undefined) return { key: kept, source: 'file', file, created: false };
  const created = createKeyFile(file);
  // Another process may have won the race to create it: the file holds the key either way.
  const key = readKeyFile(file);
  if (key === undefined) throw configError(`${file} vanished while it was being created`);
  return { key, source: 'file', file, created };
}

function readKeyFile(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = decodeSecretsKey(text);
  if (key === undefined) {
    throw configError(
      `${file} does not hold ${SECRETS_KEY_FORMAT}; restore it (secrets encrypted with it cannot be read without it), or remove it only if no secret was stored with it`,
    );
  }
  return key;
}

/** Writes a complete file under a temporary name, then links it in place: no reader sees half a key. */
function createKeyFile(file: string): boolean {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, `${randomBytes(SECRETS_KEY_BYTES).toString('base64')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

const configError = (message: string) =>
  new ConfigError(`Invalid configuration: ${VARIABLE}: ${message}`, [{ variable: VARIABLE, message }]);
