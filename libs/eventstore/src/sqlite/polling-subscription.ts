import { ValidationError, type EventEnvelope } from '@lomo/contracts';
import { NudgeableWait } from '@lomo/resilience';
import type { EventBatchHandler, EventHandler, Position, SubscribeOptions, Subscription } from '../event-store.port';
import type { FilterSql } from './event-filter-sql';
import { formatPosition, parsePosition } from './sqlite-position';

export interface EventBatch {
  envelopes: EventEnvelope[];
  positions: number[];
  /** Every event up to here was considered (matched or filtered out), read in one snapshot. */
  scannedTo: number;
}

/** What a subscription needs from the store; each call is one short read or write transaction. */
export interface SubscriptionSource {
  readBatch(after: number, filter: FilterSql, limit: number): EventBatch;
  head(): number;
  loadCheckpoint(subscriberId: string): number | undefined;
  storeCheckpoint(subscriberId: string, position: number): void;
  /** Called after each append of this instance commits; returns the unsubscribe function. */
  onAppend(listener: () => void): () => void;
}

export interface PollingSettings {
  pollIntervalMs: number;
  defaultBatchSize: number;
}

const MAX_BATCH_SIZE = 10_000;
const ignore = () => undefined;

/**
 * Catches up in batches, then tails by polling with short read transactions (other processes'
 * appends) and wakes at once on appends made through the same store instance. One handler call
 * at a time (per event, or per batch read for `{ batch }`), in global order; a durable subscriber's checkpoint is saved after each handled batch
 * and when it stops.
 */
export class PollingSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  readonly done: Promise<void>;
  private cursor: number | undefined;
  private savedCursor: number | undefined;
  private stopping = false;
  private readonly waits = new NudgeableWait();
  private settleCaughtUp: ((error?: unknown) => void) | undefined;
  private readonly batchSize: number;
  private readonly explicitStart: number | undefined;

  constructor(
    private readonly source: SubscriptionSource,
    private readonly options: SubscribeOptions,
    private readonly filter: FilterSql,
    private readonly handler: EventHandler | { batch: EventBatchHandler },
    private readonly settings: PollingSettings,
    private readonly onEnd: (subscription: PollingSubscription) => void,
  ) {
    this.batchSize = options.batchSize ?? settings.defaultBatchSize;
    if (!Number.isSafeInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > MAX_BATCH_SIZE) {
      throw new ValidationError(`Invalid batchSize ${String(options.batchSize)}`, [
        { path: 'batchSize', message: `1..${MAX_BATCH_SIZE}` },
      ]);
    }
    if (options.subscriberId !== undefined && !/^[A-Za-z0-9_.:-]{1,200}$/.test(options.subscriberId)) {
      throw new ValidationError('Invalid subscriberId', [
        { path: 'subscriberId', message: '1-200 of [A-Za-z0-9_.:-]' },
      ]);
    }
    const from = options.fromPosition;
    // 'end' is fixed now, not when the loop starts, so an append right after subscribing is seen.
    this.explicitStart =
      from === undefined
        ? undefined
        : from === 'start'
          ? 0
          : from === 'end'
            ? source.head()
            : parsePosition(from, 'fromPosition');
    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.settleCaughtUp = (error?: unknown) => (error === undefined ? resolve() : reject(error));
    });
    const unlisten = source.onAppend(() => this.wakeUp());
    // Started on a later tick so no handler runs before subscribeToAll has returned.
    this.done = Promise.resolve()
      .then(() => this.run())
      .finally(() => {
        unlisten();
        this.onEnd(this);
      });
    // Callers that only await stop() must not see an unhandled rejection; they still can observe it.
    this.done.catch(ignore);
    this.caughtUp.catch(ignore);
  }

  get position(): Position | undefined {
    return this.cursor === undefined ? undefined : formatPosition(this.cursor);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp();
    await this.done.catch(ignore);
  }

  private async run(): Promise<void> {
    try {
      this.cursor = this.startCursor();
      let cursor = this.cursor;
      while (!this.stopping) {
        // Cleared before reading: an append committed after this point wakes the next idle wait.
        this.waits.beginRound();
        const batch = this.source.readBatch(cursor, this.filter, this.batchSize);
        const handler = this.handler;
        if (typeof handler !== 'function') {
          if (batch.envelopes.length > 0 && !this.stopping) {
            await handler.batch(batch.envelopes);
            cursor = batch.positions[batch.positions.length - 1];
            this.cursor = cursor;
          }
        } else
          for (let i = 0; i < batch.envelopes.length && !this.stopping; i += 1) {
            await handler(batch.envelopes[i]);
            cursor = batch.positions[i];
            this.cursor = cursor;
          }
        if (this.stopping) break;
        cursor = Math.max(cursor, batch.scannedTo);
        this.cursor = cursor;
        this.saveCheckpoint();
        if (batch.envelopes.length < this.batchSize) {
          this.settle();
          await this.idle();
        }
      }
      this.saveCheckpoint();
      this.settle();
    } catch (error) {
      // Keep the progress of the handlers that did succeed, then end with the original error.
      try {
        this.saveCheckpoint();
      } catch {
        // The handler's error is the one worth reporting.
      }
      this.settle(error);
      throw error;
    }
  }

  private startCursor(): number {
    if (this.explicitStart !== undefined) return this.explicitStart;
    const id = this.options.subscriberId;
    const stored = id === undefined ? undefined : this.source.loadCheckpoint(id);
    this.savedCursor = stored;
    return stored ?? 0;
  }

  private saveCheckpoint(): void {
    const id = this.options.subscriberId;
    if (id === undefined || this.cursor === undefined || this.cursor === this.savedCursor) return;
    this.source.storeCheckpoint(id, this.cursor);
    this.savedCursor = this.cursor;
  }

  private settle(error?: unknown): void {
    this.settleCaughtUp?.(error);
    this.settleCaughtUp = undefined;
  }

  private wakeUp(): void {
    this.waits.nudge();
  }

  private idle(): Promise<void> {
    return this.stopping ? Promise.resolve() : this.waits.wait(this.settings.pollIntervalMs);
  }
}
