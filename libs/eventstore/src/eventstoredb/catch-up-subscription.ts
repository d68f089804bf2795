import type { AllStreamResolvedEvent, Position as ClientPosition } from '@eventstore/db-client';
import { StoreUnavailableError, ValidationError, type EventEnvelope } from '@lomo/contracts';
import type { EventHandler, Position, SubscribeOptions, Subscription } from '../event-store.port';
import type { LiveSubscription } from './esdb-client';
import { comparePositions, formatPosition, isAfter, parsePosition } from './esdb-position';
import type { RecordedLike } from './event-codec';
import { compileMatcher, type EventMatcher } from './event-matcher';
import { FeedQueue } from './feed-queue';
import { assertSubscriberId } from './stream-names';

/** An event of this store, as found in $all. */
export interface OwnEvent {
  streamId: string;
  position: ClientPosition;
  recorded: RecordedLike;
}

/** What the subscription needs from the adapter. */
export interface CatchUpSource {
  /** Position of the store's last event, or undefined when it has none. */
  head(): Promise<ClientPosition | undefined>;
  loadCheckpoint(subscriberId: string): Promise<ClientPosition | undefined>;
  storeCheckpoint(subscriberId: string, position: ClientPosition): Promise<void>;
  /** A server catch-up subscription to $all, from strictly after `after`. */
  openFeed(after: ClientPosition | undefined): LiveSubscription;
  /** undefined for events that are not the store's (system, foreign, another namespace). */
  ownEvent(resolved: AllStreamResolvedEvent): OwnEvent | undefined;
  decode(event: OwnEvent): EventEnvelope;
  /** The store's next events after `after`, in order, scanning at most `limit` events of $all. */
  ownEventsAfter(after: ClientPosition | undefined, limit: number): Promise<OwnEvent[]>;
  mapError(error: unknown): unknown;
}

export interface CatchUpSettings {
  defaultBatchSize: number;
  /** A durable subscriber whose position moved saves it after this long without new events. */
  idleCheckpointMs: number;
}

const MAX_BATCH_SIZE = 10_000;

class HandlerFailure {
  constructor(readonly error: unknown) {}
}
const ignore = () => undefined;

/**
 * One server catch-up subscription to $all (history, then live, with no gap between them), with
 * the port's semantics on top:
 * - the server filters out what is not the store's; the port's filter is applied here, because
 *   `position` must advance over the events it excludes and the server reports those only
 *   through periodic checkpoints, out of band of the events;
 * - `caughtUp` resolves once the store's head as of the start has been handled or passed over
 *   (the client's own caught-up signal needs a 23.10+ server and is not ordered with the events);
 * - a durable subscriber's position is saved every `batchSize` events, when the stream goes
 *   idle, when it catches up, on a handler error and on stop.
 */
export class CatchUpSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  readonly done: Promise<void>;
  private cursor: ClientPosition | undefined;
  private savedCursor: ClientPosition | undefined;
  private stopping = false;
  private queue: FeedQueue | undefined;
  private settleCaughtUp: ((error?: unknown) => void) | undefined;
  private readonly batchSize: number;
  private readonly matcher: EventMatcher;

  constructor(
    private readonly source: CatchUpSource,
    private readonly options: SubscribeOptions,
    private readonly handler: EventHandler,
    private readonly settings: CatchUpSettings,
    onEnd: (subscription: CatchUpSubscription) => void,
  ) {
    this.batchSize = options.batchSize ?? settings.defaultBatchSize;
    if (!Number.isSafeInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > MAX_BATCH_SIZE) {
      throw new ValidationError(`Invalid batchSize ${String(options.batchSize)}`, [
        { path: 'batchSize', message: `1..${MAX_BATCH_SIZE}` },
      ]);
    }
    if (options.subscriberId !== undefined) assertSubscriberId(options.subscriberId);
    this.matcher = compileMatcher(options.filter);
    const from = options.fromPosition;
    const explicit =
      from === undefined || from === 'start' || from === 'end' ? undefined : parsePosition(from, 'fromPosition');
    // Both reads are sent now: 'end' means the head as of this call, not as of a later tick.
    const head = source.head();
    const start = this.startPosition(from, explicit, head);
    head.catch(ignore);
    start.catch(ignore);
    this.caughtUp = new Promise<void>((resolve, reject) => {
      this.settleCaughtUp = (error?: unknown) => (error === undefined ? resolve() : reject(error));
    });
    this.done = this.run(start, head).finally(() => onEnd(this));
    // Callers that only await stop() must not see an unhandled rejection; they still can observe it.
    this.done.catch(ignore);
    this.caughtUp.catch(ignore);
  }

  get position(): Position | undefined {
    return this.cursor === undefined ? undefined : formatPosition(this.cursor);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.queue?.close();
    await this.done.catch(ignore);
  }

  private async startPosition(
    from: SubscribeOptions['fromPosition'],
    explicit: ClientPosition | undefined,
    head: Promise<ClientPosition | undefined>,
  ): Promise<ClientPosition | undefined> {
    if (explicit !== undefined || from === 'start') return explicit;
    if (from === 'end') return head;
    const id = this.options.subscriberId;
    if (id === undefined) return undefined;
    this.savedCursor = await this.source.loadCheckpoint(id);
    return this.savedCursor;
  }

  private async run(
    start: Promise<ClientPosition | undefined>,
    head: Promise<ClientPosition | undefined>,
  ): Promise<void> {
    let feed: LiveSubscription | undefined;
    try {
      this.cursor = await start;
      const headAtStart = await head;
      if (this.stopping) return this.finish();
      let caughtUp = headAtStart === undefined || (this.cursor !== undefined && !isAfter(headAtStart, this.cursor));
      if (caughtUp) this.settle();
      feed = this.source.openFeed(this.cursor);
      const queue = new FeedQueue(feed, this.batchSize * 2);
      this.queue = queue;
      if (this.stopping) queue.close();
      let unsaved = 0;
      for (;;) {
        const item = await queue.next(unsaved > 0 && this.isDurable() ? this.settings.idleCheckpointMs : undefined);
        if (item.kind === 'closed') break;
        if (item.kind === 'ended') throw new StoreUnavailableError('EventStoreDB ended the $all subscription');
        if (item.kind === 'idle') {
          await this.saveCheckpoint();
          unsaved = 0;
          continue;
        }
        const own = this.source.ownEvent(item.event);
        if (own === undefined || !isAfter(own.position, this.cursor)) continue;
        if (this.matcher(own.streamId, own.recorded.type)) await this.handle(this.source.decode(own));
        this.cursor = own.position;
        unsaved += 1;
        const reachedHead = !caughtUp && headAtStart !== undefined && !isAfter(headAtStart, own.position);
        if (reachedHead || unsaved >= this.batchSize) {
          await this.saveCheckpoint();
          unsaved = 0;
        }
        if (reachedHead) {
          caughtUp = true;
          this.settle();
        }
        if (this.stopping) break;
      }
      await this.passOverExcluded();
      await this.finish();
    } catch (failure) {
      // A handler's error is reported as thrown; only the client's errors are translated.
      const error = failure instanceof HandlerFailure ? failure.error : this.source.mapError(failure);
      // Keep the progress of the handlers that did succeed, then end with the original error.
      await this.saveCheckpoint().catch(ignore);
      this.settle(error);
      throw error;
    } finally {
      await feed?.unsubscribe().catch(ignore);
    }
  }

  private async handle(envelope: EventEnvelope): Promise<void> {
    try {
      await this.handler(envelope);
    } catch (error) {
      throw new HandlerFailure(error);
    }
  }

  private async finish(): Promise<void> {
    await this.saveCheckpoint();
    this.settle();
  }

  /**
   * On stop, events already in the store that the filter excludes are passed over up to the first
   * one it keeps, so the saved position is as far as the port's "passed over" promises even when
   * the live feed had not delivered them yet. Best effort: the position stays where it was if the
   * read fails.
   */
  private async passOverExcluded(): Promise<void> {
    try {
      for (const own of await this.source.ownEventsAfter(this.cursor, this.batchSize)) {
        if (this.matcher(own.streamId, own.recorded.type)) return;
        this.cursor = own.position;
      }
    } catch {
      // The position handled so far is still correct, only less far along.
    }
  }

  private isDurable(): boolean {
    return this.options.subscriberId !== undefined;
  }

  private async saveCheckpoint(): Promise<void> {
    const id = this.options.subscriberId;
    const cursor = this.cursor;
    if (id === undefined || cursor === undefined) return;
    if (this.savedCursor !== undefined && comparePositions(cursor, this.savedCursor) === 0) return;
    await this.source.storeCheckpoint(id, cursor);
    this.savedCursor = cursor;
  }

  private settle(error?: unknown): void {
    this.settleCaughtUp?.(error);
    this.settleCaughtUp = undefined;
  }
}
