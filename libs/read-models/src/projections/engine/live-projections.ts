import type { EventEnvelope } from '@lomo/contracts';
import { type EngineContext, ProjectionEngine } from './projection-engine';
import type { ProjectionMetrics } from './projection-metrics';
import type { ProjectionSlot } from './projection-slot';
import type { ResolvedRunnerOptions } from './runner-options';
import { SerialQueue } from './serial-queue';
import { parsePhysical } from './physical-names';
import type { ProjectionAliases } from './projection-aliases';
import { describeError } from './describe-error';

/** What the runner does once a slot moved to another collection (`follow`): sweep it, retire the old one. */
export type AdoptionHook = (slot: ProjectionSlot, engine: ProjectionEngine, left: string) => void;

/**
 * The live side of a runner: one engine per live slot, fed batches one at a time (serial-queue.ts
 * says why), with a listener hook after each batch so a consistency wait in this process looks again.
 * Before a batch, a live slot follows its alias: when an operator's rebuild switched it to another
 * collection of the same version, the slot's engine moves there (`follow`).
 */
export class LiveProjections {
  private readonly serial = new SerialQueue();
  private readonly appliedListeners = new Set<() => void>();

  constructor(
    private readonly slots: readonly ProjectionSlot[],
    private readonly options: ResolvedRunnerOptions,
    private readonly context: EngineContext,
    private readonly metrics: ProjectionMetrics | undefined,
    private readonly aliases: Pick<ProjectionAliases, 'collectionOf' | 'read'>,
    private readonly adopted: AdoptionHook,
  ) {}

  /** Applies a feed's batch to every live slot, in order; the others ignore it (rebuild and sweep cover them). */
  apply(events: readonly EventEnvelope[]): Promise<void> {
    return this.serial.run(async () => {
      try {
        for (const slot of this.slots) {
          const { phase } = slot;
          if (phase.state !== 'live') continue;
          const engine = (await this.follow(slot, false)) ?? phase.engine;
          const result = await engine.apply(events);
          this.metrics?.count(slot.definition.name, result);
        }
      } finally {
        this.announceApplied();
      }
    });
  }

  /** Applies one page to one slot's engine (a sweep's), counted and announced like a feed batch. */
  async applyTo(slot: ProjectionSlot, engine: ProjectionEngine, page: readonly EventEnvelope[]): Promise<void> {
    // Applied first: `this.metrics?.count(..., await apply())` would skip the apply without metrics.
    try {
      const result = await engine.apply(page);
      this.metrics?.count(slot.definition.name, result);
    } finally {
      this.announceApplied();
    }
  }

  /** Runs `work` between feed batches, never alongside one. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    return this.serial.run(work);
  }

  onApplied(listener: () => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** Gives the slot a live engine on its physical collection (compare-and-set writes, notices). */
  goLive(slot: ProjectionSlot): ProjectionEngine {
    const engine = new ProjectionEngine(slot.definition, slot.physical, 'live', {
      documents: this.options.documents,
      events: this.options.events,
      context: this.context,
      logger: this.options.logger,
      notices: this.options.notices,
    });
    slot.phase = { state: 'live', engine };
    return engine;
  }

  /**
   * The live slot's engine (undefined when it is not live), first moved to the collection its
   * alias names when that is a later rebuild of the same version (an operator rebuilt it and
   * switched): the new engine resumes from that collection's own applied revisions, filling gaps
   * from the store, and the adoption hook sweeps it from its checkpoint, so nothing is applied
   * twice and nothing is lost. Between batches only (a feed batch, or inside `exclusive`). `fresh`
   * reads the alias instead of the cache (the sweep does; a feed batch looks a cache period late
   * at most).
   */
  async follow(slot: ProjectionSlot, fresh: boolean): Promise<ProjectionEngine | undefined> {
    const { phase } = slot;
    if (phase.state !== 'live') return undefined;
    const name = slot.definition.name;
    const named = fresh ? (await this.aliases.read(name))?.collection : await this.aliases.collectionOf(name);
    if (named == null || !isLaterRebuild(slot.definition.name, slot.physical, named, slot.definition.version)) {
      return phase.engine;
    }
    const left = slot.physical;
    slot.physical = named;
    const engine = this.goLive(slot);
    this.options.logger.info(
      { projection: name, from: left, collection: named },
      'the alias was switched to a rebuilt collection of this version: writing there from now on',
    );
    this.adopted(slot, engine, left);
    return engine;
  }

  /** Resolves once the batch in flight (if any) is done. */
  drain(): Promise<void> {
    return this.serial.run(async () => undefined);
  }

  private announceApplied(): void {
    for (const listener of this.appliedListeners) {
      try {
        listener();
      } catch (error) {
        this.options.logger.warn({ error: describeError(error) }, 'an applied-batch listener failed');
      }
    }
  }
}

/**
 * Whether `named` is a later rebuild of the same version than `current`: rebuild numbers only grow
 * (nextRebuildCollection), so a cached alias that still names the collection a slot left never
 * moves it back.
 */
function isLaterRebuild(name: string, current: string, named: string, version: number): boolean {
  const next = parsePhysical(name, named);
  const now = parsePhysical(name, current);
  return next !== undefined && !next.streams && next.version === version && next.rebuild > (now?.rebuild ?? 0);
}
