import { retry } from '@lomo/resilience';
import type { DeadLetter, DeadLetterError, ReceivedMessage, SubscribeOptions } from '../event-bus.port';
import type { BusLogger } from '../logger';
import { describeHandlerError } from '../message-validation';
import { isRedriveForAnotherGroup } from '../redrive-header';

/** What became of one message: its offset may be committed unless the delivery was aborted. */
export type DeliveryOutcome = 'handled' | 'dead-lettered' | 'aborted';

export interface DeadLetterSink {
  /** Resolves true once the record is durably written, false when `signal` aborted first. */
  write(record: DeadLetter, signal: AbortSignal): Promise<boolean>;
}

/**
 * Runs a group's handler on one message: up to maxAttempts deliveries with the shared backoff
 * between them, then a dead letter. An abort (stop, revocation) ends it without either, so the
 * message is redelivered to whoever owns the partition next.
 */
export class MessageDelivery {
  private readonly isRetriable: (error: unknown) => boolean;

  constructor(
    private readonly options: Pick<SubscribeOptions, 'groupId' | 'handler' | 'maxAttempts' | 'backoff' | 'isRetriable'>,
    private readonly deadLetters: DeadLetterSink,
    private readonly logger: BusLogger,
  ) {
    this.isRetriable = options.isRetriable ?? (() => true);
  }

  async deliver(message: ReceivedMessage, signal: AbortSignal): Promise<DeliveryOutcome> {
    const { groupId, handler, maxAttempts, backoff } = this.options;
    // A redriven copy for another group: this group handled the original already.
    if (isRedriveForAnotherGroup(message, groupId)) return 'handled';
    let attempts = 0;
    try {
      await retry(
        async (attempt) => {
          attempts = attempt;
          await handler(message, { groupId, attempt, signal });
        },
        {
          ...backoff,
          maxAttempts,
          signal,
          isRetriable: (error) => !signal.aborted && this.isRetriable(error),
          onRetry: (error, attempt, delayMs) =>
            this.logger.warn(
              { groupId, ...position(message), attempt, delayMs, err: describeHandlerError(error) },
              'bus handler failed, retrying',
            ),
        },
      );
      return 'handled';
    } catch (error) {
      if (signal.aborted) return 'aborted';
      return this.deadLetter(message, describeHandlerError(error), attempts, signal);
    }
  }

  /** A record no handler can read (not a JSON object): straight to the dead letters, 0 attempts. */
  undecodable(message: ReceivedMessage, reason: string, signal: AbortSignal): Promise<DeliveryOutcome> {
    return this.deadLetter(message, { code: 'BUS_UNDECODABLE_MESSAGE', message: reason }, 0, signal);
  }

  private async deadLetter(
    message: ReceivedMessage,
    error: DeadLetterError,
    attempts: number,
    signal: AbortSignal,
  ): Promise<DeliveryOutcome> {
    const { groupId } = this.options;
    const record: DeadLetter = {
      groupId,
      topic: message.topic,
      message,
      error,
      attempts,
      deadLetteredAt: new Date().toISOString(),
    };
    const written = await this.deadLetters.write(record, signal);
    if (written) this.logger.warn({ groupId, ...position(message), attempts, error }, 'bus message dead-lettered');
    return written ? 'dead-lettered' : 'aborted';
  }
}

function position(message: ReceivedMessage) {
  return { topic: message.topic, partition: message.partition, offset: message.offset, key: message.key };
}
