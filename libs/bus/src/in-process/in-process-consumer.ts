import { randomUUID } from 'node:crypto';
import type { ConsumerHandle, SubscribeOptions, TopicPartition } from '../event-bus.port';
import type { BusLogger } from '../logger';
import { assignPartitions } from './group-assignment';
import { PartitionWorker } from './partition-worker';
import type { SqliteBusLog } from './sqlite-bus-log';

export interface ConsumerTiming {
  /** How often an idle partition re-reads the log (reaches publishes from other processes). */
  pollIntervalMs: number;
  /** How often the instance heartbeats and re-checks its assignment. */
  heartbeatIntervalMs: number;
  /** A member silent this long is considered dead and its partitions are taken over. */
  sessionTimeoutMs: number;
  /** Messages read per query. */
  batchSize: number;
}

const keyOf = (tp: TopicPartition) => `${tp.topic}\u0000${tp.partition}`;

/**
 * One instance of a consumer group. It owns the partitions the deterministic assignment gives
 * it and that no other member still holds; a partition changes hands only after its old owner
 * finished the message in flight and released it, so per-key order survives a rebalance.
 */
export class InProcessConsumer implements ConsumerHandle {
  readonly memberId = randomUUID();
  private readonly workers = new Map<string, PartitionWorker>();
  private readonly unlisten: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private rebalanceQueued = false;
  private stopping = false;
  private stopped: Promise<void> | undefined;

  constructor(
    private readonly log: SqliteBusLog,
    private readonly options: SubscribeOptions,
    private readonly timing: ConsumerTiming,
    private readonly logger: BusLogger,
    private readonly onStopped: (consumer: InProcessConsumer) => void,
  ) {}

  get groupId(): string {
    return this.options.groupId;
  }

  start(): void {
    this.unlisten.push(
      this.log.signals.onPublished((topic) => {
        for (const worker of this.workers.values()) if (worker.topic === topic) worker.notify();
      }),
      this.log.signals.onGroupChanged((groupId) => {
        if (groupId === this.groupId) this.queueRebalance();
      }),
    );
    this.rebalance();
    // Joining changes the assignment of the other members: let them react now, not at their next heartbeat.
    this.log.signals.groupChanged(this.groupId);
    this.timer = setInterval(() => this.rebalance(), this.timing.heartbeatIntervalMs);
  }

  assignment(): TopicPartition[] {
    return [...this.workers.values()]
      .filter((w) => !w.stopping)
      .map((w) => ({ topic: w.topic, partition: w.partition }))
      .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition);
  }

  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    for (const off of this.unlisten.splice(0)) off();
    // Ownership is kept until the handlers in flight have committed; only then leave.
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
    try {
      this.log.groups.leave(this.groupId, this.memberId);
      this.log.signals.groupChanged(this.groupId);
    } catch (error) {
      // The session timeout will expire the membership instead.
      this.logger.warn(
        { err: error, groupId: this.groupId, memberId: this.memberId },
        'could not leave the group cleanly',
      );
    }
    this.logger.info({ groupId: this.groupId, memberId: this.memberId }, 'bus consumer stopped');
    this.onStopped(this);
  }

  private queueRebalance(): void {
    if (this.rebalanceQueued || this.stopping) return;
    this.rebalanceQueued = true;
    setImmediate(() => {
      this.rebalanceQueued = false;
      this.rebalance();
    });
  }

  /** Heartbeat, then converge on the target assignment: hand back, then take. Synchronous. */
  private rebalance(): void {
    if (this.stopping) return;
    const { groupId, memberId } = this;
    const now = Date.now();
    let view;
    try {
      view = this.log.groups.heartbeat(groupId, memberId, this.options.topics, now, now - this.timing.sessionTimeoutMs);
    } catch (error) {
      this.logger.warn({ err: error, groupId, memberId }, 'bus consumer heartbeat failed');
      return;
    }
    if (view.expired.length > 0) {
      this.logger.warn({ groupId, expired: view.expired }, 'expired silent group members');
      this.log.signals.groupChanged(groupId);
    }
    const target = assignPartitions(view.members, (topic) => this.log.partitionCount(topic)).get(memberId) ?? [];
    const targetKeys = new Set(target.map(keyOf));
    const ownerOf = new Map(view.owners.map((o) => [keyOf(o), o.memberId]));

    for (const [key, worker] of this.workers) {
      if (worker.stopping) continue;
      if (ownerOf.get(key) !== memberId) void this.retire(key, worker, false);
      else if (!targetKeys.has(key)) void this.retire(key, worker, true);
    }
    for (const o of view.owners) {
      // A release that failed earlier: hand the partition back now.
      const key = keyOf(o);
      if (o.memberId === memberId && !this.workers.has(key) && !targetKeys.has(key)) this.releaseOwnership(o);
    }
    for (const tp of target) {
      const key = keyOf(tp);
      const owner = ownerOf.get(key);
      if (this.workers.has(key) || (owner !== undefined && owner !== memberId)) continue;
      this.take(key, tp);
    }
  }

  private take(key: string, tp: TopicPartition): void {
    let startOffset: number | undefined;
    try {
      startOffset = this.log.groups.claim(this.groupId, this.memberId, tp.topic, tp.partition, () =>
        this.options.fromBeginning ? 0 : this.log.endOffset(tp.topic, tp.partition),
      );
    } catch (error) {
      this.logger.warn({ err: error, groupId: this.groupId, ...tp }, 'could not claim a partition');
      return;
    }
    if (startOffset === undefined) return;
    this.logger.info({ groupId: this.groupId, memberId: this.memberId, ...tp, startOffset }, 'partition assigned');
    this.workers.set(
      key,
      new PartitionWorker({
        log: this.log,
        groupId: this.groupId,
        memberId: this.memberId,
        topic: tp.topic,
        partition: tp.partition,
        startOffset,
        handler: this.options.handler,
        maxAttempts: this.options.maxAttempts,
        backoff: this.options.backoff,
        isRetriable: this.options.isRetriable ?? (() => true),
        pollIntervalMs: this.timing.pollIntervalMs,
        batchSize: this.timing.batchSize,
        logger: this.logger,
        onFenced: () => this.queueRebalance(),
      }),
    );
  }

  private async retire(key: string, worker: PartitionWorker, release: boolean): Promise<void> {
    await worker.stop();
    if (this.workers.get(key) === worker) this.workers.delete(key);
    if (release) this.releaseOwnership(worker);
  }

  private releaseOwnership(tp: TopicPartition): void {
    try {
      this.log.groups.release(this.groupId, this.memberId, tp.topic, tp.partition);
      this.logger.info(
        { groupId: this.groupId, memberId: this.memberId, topic: tp.topic, partition: tp.partition },
        'partition released',
      );
      // The new owner can take it now.
      this.log.signals.groupChanged(this.groupId);
    } catch (error) {
      this.logger.warn(
        { err: error, groupId: this.groupId, topic: tp.topic, partition: tp.partition },
        'could not release a partition',
      );
    }
  }
}
