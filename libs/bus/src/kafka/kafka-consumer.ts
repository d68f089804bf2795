import { randomUUID } from 'node:crypto';
import { backoffDelay, retry } from '@lomo/resilience';
import type { Admin, Consumer, EachBatchPayload, IMemberAssignment, Kafka, KafkaMessage, RetryOptions } from 'kafkajs';
import { BusClosedError, BusUnavailableError } from '../errors';
import type { ConsumerHandle, ReceivedMessage, SubscribeOptions, TopicPartition } from '../event-bus.port';
import type { BusLogger } from '../logger';
import { fromKafkaMessage, rawReceivedMessage, UndecodableMessageError } from './kafka-codec';
import { isCommitRetriable, isRevocation, translateKafkaError } from './kafka-errors';
import type { KafkaConsumerTuning } from './kafka-options';
import { MessageDelivery, type DeadLetterSink, type DeliveryOutcome } from './message-delivery';
import { unpinnedEndOffsets, type Assignment } from './start-offsets';

export interface KafkaConsumerConfig {
  kafka: Kafka;
  admin: () => Promise<Admin>;
  subscription: SubscribeOptions;
  tuning: KafkaConsumerTuning;
  retry: RetryOptions;
  deadLetters: DeadLetterSink;
  logger: BusLogger;
  onStopped: (consumer: KafkaConsumerInstance) => void;
}

type Committer = Pick<EachBatchPayload, 'uncommittedOffsets' | 'commitOffsetsIfNecessary'>;

// A coordinator that just restarted answers COORDINATOR_LOAD_IN_PROGRESS for a few seconds.
const commitBackoff = { initialDelayMs: 200, maxDelayMs: 2_000, maxAttempts: 6 };
const pinBackoff = { initialDelayMs: 100, maxDelayMs: 2_000, maxAttempts: 5 };
/** Between our own restarts of a consumer kafkajs gave up on: unbounded, the broker may be down for long. */
export const crashRestartBackoff = { initialDelayMs: 500, maxDelayMs: 10_000 };

/**
 * One instance of a consumer group on kafkajs, with eachBatch and manual commits: an offset is
 * resolved only once its message was handled or dead-lettered, and resolved offsets are committed
 * at the end of every batch (and by stop(), which waits for the batches in flight).
 *
 * Each group generation has an AbortController whose signal the handlers get. It is aborted when
 * the instance stops or learns of a rebalance (kafkajs' rebalances are eager: every partition is
 * revoked), so handlers can cut long work short and the rest of the batch is left to be
 * redelivered to whoever owns the partition next.
 */
export class KafkaConsumerInstance implements ConsumerHandle {
  readonly groupId: string;
  readonly memberId = randomUUID();
  private readonly consumer: Consumer;
  private readonly delivery: MessageDelivery;
  private readonly logger: BusLogger;
  private generation = new AbortController();
  private partitions: TopicPartition[] = [];
  private stopped = false;
  private stopping: Promise<void> | undefined;
  private readonly removeListeners: Array<() => void> = [];
  private readonly batchesInFlight = new Set<Promise<void>>();
  /** The commit functions of the current generation (any batch's serve the whole instance). */
  private committer: Committer | undefined;
  private readonly ready: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void };
  /** Our restarts after crashes kafkajs does not restart from; reset by every successful join. */
  private crashRestarts = 0;
  /** start() resolved: from then on nobody waits for an error, so crashes are ours to mend. */
  private started = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private restartInFlight: Promise<void> | undefined;

  constructor(private readonly config: KafkaConsumerConfig) {
    const { subscription, tuning } = config;
    this.groupId = subscription.groupId;
    this.logger = config.logger;
    this.delivery = new MessageDelivery(subscription, config.deadLetters, config.logger);
    this.consumer = config.kafka.consumer({
      groupId: subscription.groupId,
      sessionTimeout: tuning.sessionTimeoutMs,
      rebalanceTimeout: tuning.rebalanceTimeoutMs,
      heartbeatInterval: tuning.heartbeatIntervalMs,
      maxWaitTimeInMs: tuning.maxWaitTimeMs,
      maxBytesPerPartition: tuning.maxBytesPerPartition,
      allowAutoTopicCreation: false,
      retry: config.retry,
    });
    let resolve: () => void = () => undefined;
    let reject: (error: Error) => void = () => undefined;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Observed by start() or nobody (a crash after start): never an unhandled rejection.
    promise.catch(() => undefined);
    this.ready = { promise, resolve, reject };
  }

  assignment(): TopicPartition[] {
    return this.partitions.map((tp) => ({ ...tp }));
  }

  /** Joins the group; resolves once the first assignment is known and its start offsets pinned. */
  async start(): Promise<void> {
    const { tuning } = this.config;
    const { events } = this.consumer;
    this.removeListeners.push(
      this.consumer.on(events.GROUP_JOIN, (e) => this.onJoin(e.payload.memberAssignment)),
      this.consumer.on(events.REBALANCING, () => this.onRevoked('the group is rebalancing')),
      this.consumer.on(events.CRASH, (e) => this.onCrash(e.payload.error, e.payload.restart)),
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      await this.connectAndRun();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new BusUnavailableError(`Group ${this.groupId} not joined within ${tuning.joinTimeoutMs} ms`)),
          tuning.joinTimeoutMs,
        );
      });
      await Promise.race([this.ready.promise, timeout]);
      this.started = true;
    } catch (error) {
      await this.stop();
      throw translateKafkaError(error, `join group ${this.groupId}`);
    } finally {
      clearTimeout(timer);
    }
  }

  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async connectAndRun(): Promise<void> {
    const { subscription, tuning } = this.config;
    await this.consumer.connect();
    // kafkajs keeps the subscription across a disconnect; subscribing again is harmless and
    // leaves nothing to chance after a crash.
    await this.consumer.subscribe({
      topics: [...subscription.topics],
      fromBeginning: subscription.fromBeginning === true,
    });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: tuning.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.track(this.onBatch(payload)),
    });
  }

  private async shutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    // A restart half way through would reconnect after the disconnect below.
    await this.restartInFlight;
    this.generation.abort(new BusClosedError());
    this.ready.reject(new BusClosedError());
    // Each batch commits what it finished; a commit that failed (coordinator moving) is retried
    // here once more while this instance is still a member of the group.
    await Promise.allSettled([...this.batchesInFlight]);
    if (this.committer) await this.commitFinished(this.committer).catch(() => undefined);
    try {
      // Leaves the group, so the other instances get the partitions at once instead of after a
      // session timeout (and waits for a batch kafkajs may have fetched meanwhile: it returns at once).
      await this.consumer.disconnect();
    } catch (error) {
      this.logger.warn(
        { groupId: this.groupId, memberId: this.memberId, err: errorText(error) },
        'bus consumer did not leave its group cleanly',
      );
    }
    this.partitions = [];
    for (const remove of this.removeListeners.splice(0)) remove();
    this.config.onStopped(this);
    this.logger.info({ groupId: this.groupId, memberId: this.memberId }, 'bus consumer stopped');
  }

  private track(batch: Promise<void>): Promise<void> {
    this.batchesInFlight.add(batch);
    const forget = () => this.batchesInFlight.delete(batch);
    batch.then(forget, forget);
    return batch;
  }

  private onJoin(assignment: IMemberAssignment): void {
    if (this.stopped) return;
    this.crashRestarts = 0;
    // The previous generation's commit functions would be refused from now on.
    this.committer = undefined;
    this.generation.abort(new Error('partitions reassigned'));
    const generation = new AbortController();
    this.generation = generation;
    this.partitions = Object.entries(assignment).flatMap(([topic, ps]) =>
      ps.map((partition) => ({ topic, partition })),
    );
    this.logger.info(
      { groupId: this.groupId, memberId: this.memberId, assignment: this.partitions },
      'bus consumer assigned',
    );
    this.pinStartOffsets(assignment, generation.signal).then(
      () => this.ready.resolve(),
      (error: unknown) => {
        // The next join pins again; until one succeeds subscribe() keeps waiting.
        if (!generation.signal.aborted) {
          this.logger.warn(
            { groupId: this.groupId, memberId: this.memberId, err: errorText(error) },
            'bus consumer could not pin its start offsets',
          );
        }
      },
    );
  }

  private async pinStartOffsets(assignment: Assignment, signal: AbortSignal): Promise<void> {
    if (this.config.subscription.fromBeginning === true) return;
    await retry(
      async () => {
        // kafkajs drops a commit silently until its runner is marked running, which happens right
        // after the first join; the lookups below take a round trip, so the mark is always set.
        const pins = await unpinnedEndOffsets(await this.config.admin(), this.groupId, assignment);
        if (pins.length > 0 && !signal.aborted) await this.consumer.commitOffsets(pins);
      },
      { ...pinBackoff, signal, isRetriable: (error) => !signal.aborted && !isRevocation(error) },
    );
  }

  private onRevoked(reason: string, generation: AbortController = this.generation): void {
    if (generation.signal.aborted) return;
    generation.abort(new Error(reason));
    if (generation !== this.generation) return;
    if (this.partitions.length > 0)
      this.logger.info({ groupId: this.groupId, memberId: this.memberId, reason }, 'bus consumer partitions revoked');
    this.partitions = [];
  }

  private onCrash(error: Error, restart: boolean): void {
    this.onRevoked('the consumer crashed');
    if (restart) {
      this.logger.warn(
        { groupId: this.groupId, memberId: this.memberId, err: errorText(error) },
        'bus consumer crashed; kafkajs restarts it',
      );
      return;
    }
    if (this.stopped) return;
    if (!this.started) {
      // start() is still waiting: it fails with this error and its caller decides.
      this.logger.error(
        { groupId: this.groupId, memberId: this.memberId, err: errorText(error) },
        'bus consumer crashed while joining',
      );
      this.ready.reject(translateKafkaError(error, `consume as ${this.groupId}`));
      return;
    }
    // kafkajs gives up for good on errors it files as not retriable, among them "Failed to find
    // group coordinator" while a restarted broker loads its group metadata. A consumer that
    // stays down inside a live process is the worst outcome (nothing restarts the process), so
    // we restart it ourselves, with backoff, until it joins again or is stopped.
    this.scheduleRestart(error);
  }

  private scheduleRestart(error: unknown): void {
    if (this.stopped || this.restartTimer !== undefined) return;
    this.crashRestarts += 1;
    const delayMs = backoffDelay(this.crashRestarts, crashRestartBackoff);
    this.logger.error(
      { groupId: this.groupId, memberId: this.memberId, err: errorText(error), attempt: this.crashRestarts, delayMs },
      'bus consumer crashed and kafkajs gave up; restarting it',
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      const attempt = this.restartAfterCrash().finally(() => {
        if (this.restartInFlight === attempt) this.restartInFlight = undefined;
      });
      this.restartInFlight = attempt;
    }, delayMs);
  }

  private async restartAfterCrash(): Promise<void> {
    if (this.stopped) return;
    try {
      // kafkajs disconnected before it reported the crash.
      await this.connectAndRun();
    } catch (error) {
      // Failed before kafkajs' runner took over (connect, subscribe): nobody else will retry.
      // A crash inside run() was reported through onCrash and is already scheduled.
      await this.consumer.disconnect().catch(() => undefined);
      this.scheduleRestart(error);
    }
  }

  private async onBatch(payload: EachBatchPayload): Promise<void> {
    const generation = this.generation;
    const { batch } = payload;
    if (generation.signal.aborted) return;
    const committer: Committer = {
      uncommittedOffsets: payload.uncommittedOffsets,
      commitOffsetsIfNecessary: payload.commitOffsetsIfNecessary,
    };
    this.committer = committer;
    let revocation: unknown;
    // kafkajs heartbeats only between batches; a slow handler or a backoff wait would otherwise
    // cost the session. A failed heartbeat is also how a revocation shows up mid-batch.
    const beat = async () => {
      try {
        await payload.heartbeat();
      } catch (error) {
        if (!isRevocation(error)) return;
        revocation ??= error;
        this.onRevoked('the group is rebalancing', generation);
      }
    };
    const ticker = setInterval(() => void beat(), this.config.tuning.heartbeatIntervalMs);
    try {
      for (const message of batch.messages) {
        if (generation.signal.aborted) break;
        const outcome = await this.deliver(batch.topic, batch.partition, message, generation.signal);
        if (outcome === 'aborted') break;
        payload.resolveOffset(message.offset);
      }
    } finally {
      clearInterval(ticker);
    }
    await this.commitFinished(committer);
    // Handing the rebalance error back to kafkajs makes it rejoin now rather than after a fetch.
    if (revocation !== undefined) throw revocation;
  }

  private deliver(topic: string, partition: number, raw: KafkaMessage, signal: AbortSignal): Promise<DeliveryOutcome> {
    let message: ReceivedMessage;
    try {
      message = fromKafkaMessage(topic, partition, raw);
    } catch (error) {
      if (error instanceof UndecodableMessageError)
        return this.delivery.undecodable(rawReceivedMessage(topic, partition, raw), error.message, signal);
      throw error;
    }
    return this.delivery.deliver(message, signal);
  }

  /**
   * Commits every resolved offset (all partitions of this instance). During a rebalance the
   * broker still accepts commits of the ending generation, so finished work is not redelivered.
   */
  private async commitFinished(committer: Committer): Promise<void> {
    const offsets = committer.uncommittedOffsets();
    if (offsets.topics.length === 0) return;
    try {
      await retry(() => committer.commitOffsetsIfNecessary(offsets), {
        ...commitBackoff,
        isRetriable: isCommitRetriable,
      });
    } catch (error) {
      this.logger.warn(
        { groupId: this.groupId, memberId: this.memberId, err: errorText(error), offsets: offsets.topics },
        'bus consumer could not commit; the finished messages will be redelivered',
      );
      if (isRevocation(error)) throw error;
    }
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
