import { LomoError } from '@lomo/contracts';

export const WebhookErrorCodes = {
  WEBHOOK_NOT_FOUND: 'WEBHOOK_NOT_FOUND',
  DEAD_LETTER_NOT_FOUND: 'DEAD_LETTER_NOT_FOUND',
  DEAD_LETTER_NOT_OPEN: 'DEAD_LETTER_NOT_OPEN',
  WEBHOOK_LIMIT_REACHED: 'WEBHOOK_LIMIT_REACHED',
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
