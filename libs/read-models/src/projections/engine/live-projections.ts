import type { EventEnvelope } from '@lomo/contracts';
import { type EngineContext, ProjectionEngine } from './projection-engine';
import type { ProjectionMetrics } from './projection-metrics';
import type { ProjectionSlot } from './projection-slot';
import type { ResolvedRunnerOptions } from './runner-options';
import { SerialQueue } from './serial-queue';
import { describeError } from './describe-error';

/**
 * The live side of a runner: one engine per live slot, fed batches one at a time (serial-queue.ts
 * says why), with a listener hook after each batch so a consistency wait in this process looks again.
 */
export class LiveProjections {
  private readonly serial = new SerialQueue();
  private readonly appliedListeners = new Set<() => void>();

  constructor(
    private readonly slots: readonly ProjectionSlot[],
    private readonly options: ResolvedRunnerOptions,
    private readonly context: EngineContext,
    private readonly metrics: ProjectionMetrics | undefined,
  ) {}

  /** Applies a feed's batch to every live slot, in order; the others ignore it (rebuild and sweep cover them). */
  apply(events: readonly EventEnvelope[]): Promise<void> {
    return this.serial.run(async () => {
      try {
        for (const slot of this.slots) {
          const { phase } = slot;
          if (phase.state !== 'live') continue;
          const result = await phase.engine.apply(events);
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
