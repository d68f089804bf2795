import { LomoError } from '@lomo/contracts';

/**
 * A newer relay instance took over: the lease moved to another holder (a higher epoch) or Kafka
 * refused this producer's epoch. The fenced instance publishes nothing more.
 */
export class RelayFencedError extends LomoError {
  readonly code = 'BUS_RELAY_FENCED';
  readonly retriable = false;
  constructor(
    readonly relayId: string,
    readonly epoch: number,
    reason: string,
    cause?: unknown,
  ) {
    super(`Relay ${relayId} (epoch ${epoch}) is fenced: ${reason}`, {
      relayId,
      epoch,
      reason,
      ...(cause === undefined ? {} : { cause: cause instanceof Error ? cause.message : String(cause) }),
    });
  }
}

/**
 * This instance cannot prove it still holds the lease (renewals failed until it expired, or it
 * has not become active). It must not publish until it renews or re-acquires the lease.
 */
export class RelayLeaseLapsedError extends LomoError {
  readonly code = 'BUS_RELAY_LEASE_LAPSED';
  readonly retriable = true;
  constructor(
    readonly relayId: string,
    reason: string,
  ) {
    super(`Relay ${relayId} does not hold its lease: ${reason}`, { relayId, reason });
  }
}

export function isRelayFenced(error: unknown): error is RelayFencedError {
  return error instanceof RelayFencedError;
}
