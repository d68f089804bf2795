import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@lomo/contracts';
import type { EventStore, Position } from '@lomo/eventstore';
import type { Logger, Metrics } from '@lomo/observability';
import type { DocumentStore } from '../../document-store/document-store.port';
import { WRITE_LOCK_BYTES } from '../../document-store/sqlite/sqlite-write-lock';
import type { ChangeNoticeSink } from './change-notice';
import { InvalidProjectionError, RebuildInterruptedError } from './errors';
import { assertProjectionShape, physicalCollection } from './physical-names';
import { ProjectionAliases } from './projection-aliases';
import { ProjectionCheckpoints } from './projection-checkpoints';
import type { AnyProjection } from './projection-definition';
import { ProjectionEngine, type EngineContext } from './projection-engine';
import { ProjectionMetrics } from './projection-metrics';
import { assessHealth, type ProjectionState, type ProjectionStatus, type ProjectorHealth } from './projection-status';
import { prefixesOf, rebuildCollections, type RebuildResult, type RebuildTarget } from './rebuild';
import { planRebuildGroups } from './rebuild-groups';
import {
  canRebuildOnThread,
  DEFAULT_REBUILD_THREADS_MIN_EVENTS,
  rebuildOnThread,
  RebuildThreadUnavailableError,
  type RebuildThreadsOptions,
} from './rebuild-threads';
import { RetiredCollections } from './retired-collections';
import { SerialQueue } from './serial-queue';
import { TurnTaskLookup } from './turn-task-lookup';

export interface ProjectionRunnerOptions {
  documents: DocumentStore;
  events: EventStore;
  projections: readonly AnyProjection[];
  logger: Logger;
  notices?: ChangeNoticeSink;
  metrics?: Metrics;
  now?: () => Date;
  /** Owner id of rebuild leases; unique per instance. */
  instanceId?: string;
  /** Events per read (and per bulk write round) while rebuilding. */
  rebuildBatchSize?: number;
  /**
   * Rebuild on worker threads (SQLite files only), one group of projections per thread: projections
   * reading the same stream categories share a thread and one read of the log. Projections a
   * thread cannot load (not in `readModelProjections`) are rebuilt on this thread, alongside.
   */
  rebuildThreads?: RebuildThreadsOptions;
  /** Events per read while sweeping the store after a checkpoint. */
  sweepBatchSize?: number;
  rebuildLeaseMs?: number;
  /** How often an instance waiting for another's rebuild looks at the alias. */
  rebuildWaitPollMs?: number;
  /** Readers may still hold a retired collection's name this long (their alias cache). */
  dropRetiredAfterMs?: number;
  /** /health reports down when a live projection is further behind than this. */
  maxLagSeconds?: number;
}

interface Slot {
  definition: AnyProjection;
  physical: string;
  state: ProjectionState;
  engine: ProjectionEngine | undefined;
  lagEvents: number;
  lagSeconds: number;
  lastSweepAt: string | null;
  rebuiltEvents: number;
  error: string | null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
const describe = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Runs a set of projections: starts each one live when its alias already points at this version,
 * otherwise rebuilds it from the log into `<name>_v<version>` (one instance, under a lease) and
 * switches the alias; applies live events from any feed; sweeps the store after each physical
 * collection's checkpoint to repair what a feed missed and to measure lag.
 */
export class ProjectionRunner {
  readonly aliases: ProjectionAliases;
  private readonly checkpoints: ProjectionCheckpoints;
  private readonly slots: Slot[];
  private readonly context: EngineContext;
  private readonly serial = new SerialQueue();
  private readonly logger: Logger;
  private readonly metrics: ProjectionMetrics | undefined;
  private readonly now: () => Date;
  private readonly instanceId: string;
  private readonly retired: RetiredCollections;
  private readyPromise: Promise<void> = Promise.resolve();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private stopped = false;
  private readonly appliedListeners = new Set<() => void>();
  /** Read by rebuild threads at every batch: 1 once stop() was called. */
  private readonly threadStop = new Int32Array(new SharedArrayBuffer(4));
  /** Taken by rebuild threads around each write transaction on the read-model file. */
  private readonly threadWriteLock = new SharedArrayBuffer(WRITE_LOCK_BYTES);

  constructor(private readonly options: ProjectionRunnerOptions) {
    const names = new Set<string>();
    for (const definition of options.projections) {
      assertProjectionShape(definition);
      if (names.has(definition.name)) throw new InvalidProjectionError(definition.name, 'defined twice');
      names.add(definition.name);
    }
    this.now = options.now ?? (() => new Date());
    this.aliases = new ProjectionAliases(options.documents, { now: this.now });
    this.checkpoints = new ProjectionCheckpoints(options.documents, this.now);
    this.retired = new RetiredCollections(
      options.documents,
      this.checkpoints,
      options.logger.child({ component: 'projector' }),
      options.dropRetiredAfterMs ?? 5_000,
    );
    this.context = new TurnTaskLookup(options.events);
    this.logger = options.logger.child({ component: 'projector' });
    this.instanceId = options.instanceId ?? randomUUID();
    this.slots = options.projections.map((definition) => ({
      definition,
      physical: physicalCollection(definition),
      state: 'starting',
      engine: undefined,
      lagEvents: 0,
      lagSeconds: 0,
      lastSweepAt: null,
      rebuiltEvents: 0,
      error: null,
    }));
    this.metrics = options.metrics ? new ProjectionMetrics(options.metrics, () => this.status()) : undefined;
  }

  /**
   * Resolves once the projections whose alias already names this version are live and caught up
   * with the store. Rebuilds go on in the background; `ready()` resolves when they switched too.
   */
  async start(): Promise<void> {
    const toRebuild: Slot[] = [];
    for (const slot of this.slots) {
      const alias = await this.aliases.read(slot.definition.name);
      if (alias?.version != null && alias.version > slot.definition.version) {
        slot.state = 'superseded';
        this.logger.warn(
          { projection: slot.definition.name, version: slot.definition.version, aliasVersion: alias.version },
          'a newer version of this projection is live; this instance leaves it alone',
        );
      } else if (alias?.collection === slot.physical) {
        await this.options.documents.ensureIndexes(slot.physical, slot.definition.indexes);
        this.goLive(slot);
        await this.retired.dropOlderThan(slot.definition.name, slot.definition.version);
      } else {
        toRebuild.push(slot);
      }
    }
    await this.sweep();
    this.readyPromise = this.rebuildAll(toRebuild);
    // Failures are recorded on the slots (health shows them); ready() rethrows for callers that wait.
    this.readyPromise.catch(() => undefined);
  }

  /** Resolves when every projection is live (or superseded); rejects if a rebuild failed. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Sweeps the store every `intervalMs` (repairs what a feed missed, refreshes lag). */
  startSweeping(intervalMs: number): void {
    if (this.sweepTimer !== undefined || this.stopped) return;
    const tick = async () => {
      try {
        this.sweeping = this.sweep();
        await this.sweeping;
      } catch (error) {
        this.logger.error({ error: describe(error) }, 'store sweep failed; retrying at the next tick');
      } finally {
        this.sweeping = undefined;
        if (!this.stopped) this.sweepTimer = setTimeout(() => void tick(), intervalMs).unref();
      }
    };
    this.sweepTimer = setTimeout(() => void tick(), intervalMs).unref();
  }

  /**
   * Applies events from a feed to every live projection, in order. Safe under duplicates and any
   * cross-stream order; a projection not live yet ignores them (its rebuild and sweep cover them).
   */
  apply(events: readonly EventEnvelope[]): Promise<void> {
    return this.serial.run(async () => {
      try {
        for (const slot of this.slots) {
          if (slot.state !== 'live' || slot.engine === undefined) continue;
          const result = await slot.engine.apply(events);
          this.metrics?.count(slot.definition.name, result);
        }
      } finally {
        this.announceApplied();
      }
    });
  }

  /**
   * `listener` runs after every batch the live projections applied (from a feed or a sweep), so a
   * consistency wait in this process checks again at once; the result unsubscribes.
   */
  onApplied(listener: () => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** One pass over the store after each live collection's checkpoint, up to the head. */
  async sweep(): Promise<void> {
    for (const slot of this.slots) {
      if (slot.state === 'live') await this.sweepSlot(slot);
    }
  }

  status(): ProjectionStatus[] {
    return this.slots.map((s) => ({
      name: s.definition.name,
      version: s.definition.version,
      collection: s.physical,
      state: s.state,
      lagEvents: s.lagEvents,
      lagSeconds: s.lagSeconds,
      lastSweepAt: s.lastSweepAt,
      rebuiltEvents: s.rebuiltEvents,
      error: s.error,
    }));
  }

  health(): ProjectorHealth {
    return assessHealth(this.status(), this.options.maxLagSeconds ?? 60);
  }

  /** Stops timers and rebuild loops and waits for the work in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    Atomics.store(this.threadStop, 0, 1);
    if (this.sweepTimer !== undefined) clearTimeout(this.sweepTimer);
    this.retired.cancel();
    await this.readyPromise.catch(() => undefined);
    await this.sweeping?.catch(() => undefined);
    await this.serial.run(async () => undefined);
  }

  private announceApplied(): void {
    for (const listener of this.appliedListeners) {
      try {
        listener();
      } catch (error) {
        this.logger.warn({ error: describe(error) }, 'an applied-batch listener failed');
      }
    }
  }

  private goLive(slot: Slot): void {
    slot.engine = new ProjectionEngine(slot.definition, slot.physical, 'live', {
      documents: this.options.documents,
      events: this.options.events,
      context: this.context,
      logger: this.logger,
      notices: this.options.notices,
    });
    slot.state = 'live';
    slot.error = null;
  }

  private async sweepSlot(slot: Slot): Promise<void> {
    const engine = slot.engine as ProjectionEngine;
    const batchSize = this.options.sweepBatchSize ?? 1_000;
    const filter = { streamPrefixes: prefixesOf([slot.definition]) };
    let position: Position | undefined = await this.checkpoints.get(slot.physical);
    let behind = 0;
    let oldest: string | undefined;
    for (;;) {
      const page = await this.options.events.readAll({
        fromPosition: position ?? 'start',
        filter,
        maxCount: batchSize,
      });
      if (page.length === 0) break;
      await this.serial.run(async () => {
        // Measured before applying: what the feeds had not delivered yet is the lag.
        await engine.streams.preload(page.map((e) => e.metadata.streamId));
        for (const event of page) {
          if ((await engine.streams.revision(event.metadata.streamId)) >= event.metadata.revision) continue;
          behind += 1;
          oldest ??= event.metadata.occurredAt;
        }
        // Applied first: `this.metrics?.count(..., await apply())` would skip the apply without metrics.
        try {
          const result = await engine.apply(page);
          this.metrics?.count(slot.definition.name, result);
        } finally {
          this.announceApplied();
        }
      });
      position = page[page.length - 1].metadata.globalPosition;
      await this.checkpoints.save(slot.physical, position);
      if (page.length < batchSize) break;
    }
    slot.lagEvents = behind;
    slot.lagSeconds = oldest === undefined ? 0 : Math.max(0, (this.now().getTime() - Date.parse(oldest)) / 1000);
    slot.lastSweepAt = this.now().toISOString();
  }

  private async rebuildAll(slots: readonly Slot[]): Promise<void> {
    let pending = [...slots];
    while (pending.length > 0 && !this.stopped) {
      const claimed: Slot[] = [];
      const waiting: Slot[] = [];
      for (const slot of pending) {
        const claim = await this.claim(slot);
        if (claim === 'claimed') claimed.push(slot);
        else if (claim === 'taken') waiting.push(slot);
        else await this.adoptSwitched(slot);
      }
      if (claimed.length > 0) await this.rebuildAndSwitch(claimed);
      pending = waiting;
      for (const slot of waiting) slot.state = 'waiting';
      if (pending.length > 0) await sleep(this.options.rebuildWaitPollMs ?? 500);
    }
  }

  private claim(slot: Slot) {
    const { name, version } = slot.definition;
    return this.aliases.claimRebuild(
      name,
      version,
      slot.physical,
      this.instanceId,
      this.options.rebuildLeaseMs ?? 60_000,
    );
  }

  /** Another instance rebuilt and switched: start live from its checkpoint. */
  private async adoptSwitched(slot: Slot): Promise<void> {
    const alias = await this.aliases.read(slot.definition.name);
    if (alias?.collection !== slot.physical) {
      slot.state = 'superseded';
      return;
    }
    await this.serial.run(async () => this.goLive(slot));
    await this.sweepSlot(slot);
  }

  /**
   * Rebuilds the claimed slots, in groups on threads when configured, and switches each group's
   * aliases as soon as that group is done. A group that fails marks its own slots failed; the
   * others go on. The first failure is rethrown once every group ended.
   */
  private async rebuildAndSwitch(slots: Slot[]): Promise<void> {
    const leaseMs = this.options.rebuildLeaseMs ?? 60_000;
    let renewedAt = Date.now();
    let renewing: Promise<void> | undefined;
    // The lease covers every claimed slot, renewed on any group's progress; a renewal that failed
    // is tried again at the next batch, not a third of a lease later.
    const renewIfDue = async () => {
      if (renewing !== undefined || Date.now() - renewedAt <= leaseMs / 3) return;
      const started = Date.now();
      renewing = (async () => {
        for (const slot of slots) await this.claim(slot);
      })();
      try {
        await renewing;
        renewedAt = started;
      } finally {
        renewing = undefined;
      }
    };
    for (const slot of slots) {
      slot.state = 'rebuilding';
      slot.rebuiltEvents = 0;
    }
    const threads = (await this.useThreads()) ? this.options.rebuildThreads : undefined;
    const onThreads = threads !== undefined ? slots.filter((s) => canRebuildOnThread(s.definition)) : [];
    const here = slots.filter((s) => !onThreads.includes(s));
    const groups = planRebuildGroups(onThreads, threads?.threads ?? 0, (s) => s.definition.categories);
    const runs = groups.map((group) => this.rebuildGroup(group, 'thread', renewIfDue));
    if (here.length > 0) runs.push(this.rebuildGroup(here, 'here', renewIfDue));
    const failures = (await Promise.all(runs)).filter((error) => error !== undefined);
    if (failures.length > 0) throw failures[0];
  }

  /** Threads are configured and the log is big enough to be worth them (SQLite positions count events). */
  private async useThreads(): Promise<boolean> {
    const threads = this.options.rebuildThreads;
    if (threads === undefined || threads.threads < 1) return false;
    const minEvents = threads.minEvents ?? DEFAULT_REBUILD_THREADS_MIN_EVENTS;
    if (minEvents <= 0) return true;
    const head = Number((await this.options.events.headPosition()) ?? 0);
    return !Number.isFinite(head) || head >= minEvents;
  }

  /** One group: rebuilt, then switched. Resolves with its error instead of rejecting. */
  private async rebuildGroup(
    slots: Slot[],
    where: 'thread' | 'here',
    renewIfDue: () => Promise<void>,
  ): Promise<unknown> {
    const names = slots.map((s) => s.definition.name);
    try {
      const targets: RebuildTarget[] = slots.map((s) => ({ definition: s.definition, physical: s.physical }));
      let result: RebuildResult | undefined;
      if (where === 'thread') {
        try {
          result = await this.rebuildOnThread(slots, targets, renewIfDue);
        } catch (error) {
          if (!(error instanceof RebuildThreadUnavailableError)) throw error;
          this.logger.warn(
            { projections: names, reason: error.reason },
            'no rebuild thread could start; rebuilding on this thread',
          );
        }
      }
      result ??= await this.rebuildHere(slots, targets, renewIfDue);
      await this.switchRebuilt(slots, result);
      return undefined;
    } catch (error) {
      if (error instanceof RebuildInterruptedError) {
        this.logger.info({ projections: names }, 'rebuild interrupted by a stop; the next start begins it again');
        return undefined;
      }
      for (const slot of slots) {
        slot.state = 'failed';
        slot.error = describe(error);
      }
      this.logger.error({ projections: names, error: describe(error) }, 'rebuild failed');
      return error;
    }
  }

  private rebuildHere(slots: Slot[], targets: RebuildTarget[], renewIfDue: () => Promise<void>) {
    const names = slots.map((s) => s.definition.name);
    return rebuildCollections(targets, {
      documents: this.options.documents,
      events: this.options.events,
      context: this.context,
      logger: this.logger,
      batchSize: this.options.rebuildBatchSize ?? 5_000,
      onBatch: async (progress) => {
        for (const slot of slots) slot.rebuiltEvents = progress.events;
        if (this.stopped) throw new RebuildInterruptedError(names);
        await renewIfDue();
      },
    });
  }

  private rebuildOnThread(slots: Slot[], targets: RebuildTarget[], renewIfDue: () => Promise<void>) {
    return rebuildOnThread(targets, {
      threads: this.options.rebuildThreads as RebuildThreadsOptions,
      batchSize: this.options.rebuildBatchSize ?? 5_000,
      stop: this.threadStop,
      writeLock: this.threadWriteLock,
      logger: this.logger,
      onProgress: (events) => {
        for (const slot of slots) slot.rebuiltEvents = events;
        renewIfDue().catch((error: unknown) =>
          this.logger.warn({ error: describe(error) }, 'rebuild lease renewal failed; retrying at the next batch'),
        );
      },
    });
  }

  private async switchRebuilt(slots: Slot[], result: RebuildResult): Promise<void> {
    for (const slot of slots) {
      if (result.position !== undefined) await this.checkpoints.save(slot.physical, result.position);
      const retired = await this.aliases.switchTo(slot.definition.name, slot.definition.version, slot.physical);
      this.logger.info(
        { projection: slot.definition.name, collection: slot.physical, retired, events: result.events },
        'alias switched to the rebuilt collection',
      );
      await this.serial.run(async () => this.goLive(slot));
      // Events appended after the rebuild's last read, which the feeds skipped meanwhile.
      await this.sweepSlot(slot);
      await this.retired.dropLater(retired);
    }
  }
}
