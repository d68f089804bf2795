import { LomoError } from '@lomo/contracts';

export const WebhookErrorCodes = {
  WEBHOOK_NOT_FOUND: 'WEBHOOK_NOT_FOUND',
  DEAD_LETTER_NOT_FOUND: 'DEAD_LETTER_NOT_FOUND',
  DEAD_LETTER_NOT_OPEN: 'DEAD_LETTER_NOT_OPEN',
  WEBHOOK_LIMIT_REACHED: 'WEBHOOK_LIMIT_REACHED',
  SECRET_KEY_MISMATCH: 'SECRET_KEY_MISMATCH',
  SECRET_UNREADABLE: 'SECRET_UNREADABLE',
  WEBHOOK_TARGET_FORBIDDEN: 'WEBHOOK_TARGET_FORBIDDEN',
  WEBHOOK_HOST_UNRESOLVED: 'WEBHOOK_HOST_UNRESOLVED',
} as const;

/** The same for an absent webhook and for one of another workspace: ids do not leak across tenants. */
export class WebhookNotFoundError extends LomoError {
  readonly code = WebhookErrorCodes.WEBHOOK_NOT_FOUND;
  readonly retriable = false;
  constructor(readonly webhookId: string) {
    super(`No webhook ${webhookId}`, { webhookId });
  }
}

export class DeadLetterNotFoundError extends LomoError {
  readonly code = WebhookErrorCodes.DEAD_LETTER_NOT_FOUND;
  readonly retriable = false;
  constructor(readonly deadLetterId: string) {
    super(`No dead letter ${deadLetterId}`, { deadLetterId });
  }
}

/** Redeliver and skip act on open dead letters only; a second click must not deliver twice. */
export class DeadLetterNotOpenError extends LomoError {
  readonly code = WebhookErrorCodes.DEAD_LETTER_NOT_OPEN;
  readonly retriable = false;
  constructor(
    readonly deadLetterId: string,
    readonly status: string,
  ) {
    super(`Dead letter ${deadLetterId} is ${status}, not open`, { deadLetterId, status });
  }
}

export class WebhookLimitReachedError extends LomoError {
  readonly code = WebhookErrorCodes.WEBHOOK_LIMIT_REACHED;
  readonly retriable = false;
  constructor(
    readonly workspaceId: string,
    readonly limit: number,
  ) {
    super(`Workspace ${workspaceId} already has ${limit} webhooks`, { workspaceId, limit });
  }
}

/**
 * A stored secret was encrypted under another LOMO_SECRETS_KEY than this process holds (the ids
 * are short hashes of the keys, never the keys). Retrying cannot help: the configuration must.
 */
export class SecretKeyMismatchError extends LomoError {
  readonly code = WebhookErrorCodes.SECRET_KEY_MISMATCH;
  readonly retriable = false;
  constructor(
    readonly expectedKeyId: string,
    readonly foundKeyId: string,
  ) {
    super(`Stored secret was encrypted with key ${foundKeyId}, but LOMO_SECRETS_KEY is key ${expectedKeyId}`, {
      expectedKeyId,
      foundKeyId,
    });
  }
}

export type SecretUnreadableReason = 'malformed' | 'unsupported_version' | 'authentication_failed';

/**
 * A stored secret that does not decrypt with the right key: not in the sealed format, of a format
 * version this code does not know, or altered (its GCM tag does not match: a changed ciphertext,
 * tag or IV, or a value copied from another webhook or secret entry).
 */
export class SecretUnreadableError extends LomoError {
  readonly code = WebhookErrorCodes.SECRET_UNREADABLE;
  readonly retriable = false;
  constructor(readonly reason: SecretUnreadableReason) {
    super(`Stored secret cannot be decrypted: ${reason}`, { reason });
  }
}

/**
 * In production a webhook's host, or an address it resolves to, is loopback, private, link-local,
 * a metadata endpoint or otherwise not public (webhook-target.ts). Nothing is stored.
 */
export class WebhookTargetForbiddenError extends LomoError {
  readonly code = WebhookErrorCodes.WEBHOOK_TARGET_FORBIDDEN;
  readonly retriable = false;
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: string,
  ) {
    super(`Webhook host ${host} is refused in production: ${address} is ${addressClass}`, {
      host,
      address,
      addressClass,
    });
  }
}

/** The host name did not resolve (node:dns code in `dnsCode`); DNS may answer later, so retriable. */
export class WebhookHostUnresolvedError extends LomoError {
  readonly code = WebhookErrorCodes.WEBHOOK_HOST_UNRESOLVED;
  readonly retriable = true;
  constructor(
    readonly host: string,
    readonly dnsCode: string,
  ) {
    super(`Webhook host ${host} could not be resolved: ${dnsCode}`, { host, dnsCode });
  }
}
