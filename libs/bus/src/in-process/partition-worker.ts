import { backoffDelay, retry, type BackoffOptions } from '@lomo/resilience';
import { BusClosedError } from '../errors';
import type { MessageHandler, ReceivedMessage } from '../event-bus.port';
import type { BusLogger } from '../logger';
import { describeHandlerError } from '../message-validation';
import { isRedriveForAnotherGroup } from '../redrive-header';
import type { SqliteBusLog } from './sqlite-bus-log';

export interface PartitionWorkerOptions {
  log: SqliteBusLog;
  groupId: string;
  memberId: string;
  topic: string;
  partition: number;
  startOffset: number;
  handler: MessageHandler;
  maxAttempts: number;
  backoff: BackoffOptions;
  isRetriable: (error: unknown) => boolean;
  pollIntervalMs: number;
  batchSize: number;
  logger: BusLogger;
  /** Called when a commit was refused: another member owns the partition now. */
  onFenced: () => void;
}

type Outcome = { kind: 'handled' } | { kind: 'aborted' } | { kind: 'failed'; error: unknown; attempts: number };

/**
 * Consumes one owned partition in order: deliver with retries, then commit (or dead-letter and
 * commit) before the next message, so per-key order holds and the offset never passes an
 * unfinished message. Partitions run in their own workers, so a retrying message delays only
 * the keys of its own partition.
 */
export class PartitionWorker {
  readonly finished: Promise<void>;
  private readonly abort = new AbortController();
  private wake: (() => void) | undefined;
  private position: number;
  private storageFailures = 0;

  constructor(private readonly options: PartitionWorkerOptions) {
    this.position = options.startOffset;
    this.finished = this.run();
  }

  get topic(): string {
    return this.options.topic;
  }

  get partition(): number {
    return this.options.partition;
  }

  get stopping(): boolean {
    return this.abort.signal.aborted;
  }

  /** New messages may be there: skip the rest of the poll wait. */
  notify(): void {
    this.wake?.();
  }

  /** Aborts waits and backoff, lets a running handler finish, then resolves. */
  stop(): Promise<void> {
    if (!this.abort.signal.aborted) this.abort.abort(new Error('partition worker stopping'));
    this.wake?.();
    return this.finished;
  }

  private async run(): Promise<void> {
    const o = this.options;
    while (!this.abort.signal.aborted) {
      try {
        const batch = o.log.read(o.topic, o.partition, this.position, o.batchSize);
        if (batch.length === 0) {
          await this.idle(o.pollIntervalMs);
          continue;
        }
        for (const message of batch) {
          if (this.abort.signal.aborted) return;
          if (!(await this.process(message))) return;
        }
        this.storageFailures = 0;
      } catch (error) {
        if (error instanceof BusClosedError) return;
        // The log is unreachable for now: keep the position (the message in hand is redelivered).
        this.storageFailures += 1;
        const delayMs = backoffDelay(this.storageFailures, o.backoff);
        o.logger.warn(
          { err: error, groupId: o.groupId, topic: o.topic, partition: o.partition, delayMs },
          'bus consumer storage error, retrying',
        );
        await this.idle(Math.max(delayMs, o.pollIntervalMs));
      }
    }
  }

  /** False when the worker must end (stopping, or fenced off). */
  private async process(message: ReceivedMessage): Promise<boolean> {
    const o = this.options;
    const outcome = await this.deliver(message);
    if (outcome.kind === 'aborted') return false;
    let kept: boolean;
    if (outcome.kind === 'handled') {
      kept = o.log.groups.commit(o.groupId, o.memberId, o.topic, o.partition, message.offset + 1);
    } else {
      const error = describeHandlerError(outcome.error);
      kept = o.log.groups.deadLetter(o.groupId, o.memberId, message, error, outcome.attempts);
      if (kept) {
        o.logger.error(
          {
            groupId: o.groupId,
            topic: o.topic,
            partition: o.partition,
            offset: message.offset,
            key: message.key,
            attempts: outcome.attempts,
            error,
          },
          'message dead-lettered',
        );
      }
    }
    if (!kept) {
      o.logger.warn(
        { groupId: o.groupId, memberId: o.memberId, topic: o.topic, partition: o.partition },
        'partition lost to another member',
      );
      o.onFenced();
      return false;
    }
    this.position = message.offset + 1;
    return true;
  }

  private async deliver(message: ReceivedMessage): Promise<Outcome> {
    const o = this.options;
    // A redriven copy for another group: this group handled the original already.
    if (isRedriveForAnotherGroup(message, o.groupId)) return { kind: 'handled' };
    const signal = this.abort.signal;
    let attempts = 0;
    try {
      await retry(
        async (attempt) => {
          attempts = attempt;
          await o.handler(message, { groupId: o.groupId, attempt, signal });
        },
        {
          ...o.backoff,
          maxAttempts: o.maxAttempts,
          signal,
          isRetriable: (error) => o.isRetriable(error),
          onRetry: (error, attempt, delayMs) =>
            o.logger.warn(
              {
                err: error,
                groupId: o.groupId,
                topic: o.topic,
                partition: o.partition,
                offset: message.offset,
                attempt,
                delayMs,
              },
              'bus handler failed, retrying',
            ),
        },
      );
      return { kind: 'handled' };
    } catch (error) {
      // A failure while stopping is the stop, not the message's fault: redeliver it later.
      if (signal.aborted) return { kind: 'aborted' };
      return { kind: 'failed', error, attempts };
    }
  }

  /** Waits for a notify, the poll interval or the stop, whichever comes first. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.abort.signal;
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}
