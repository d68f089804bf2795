import type { EventEnvelope } from '@lomo/contracts';
import { InvalidProjectionError } from './errors';
import { LiveProjections } from './live-projections';
import { assertProjectionShape, physicalCollection } from './physical-names';
import { ProjectionAliases } from './projection-aliases';
import { ProjectionCheckpoints } from './projection-checkpoints';
import type { ProjectionEngine } from './projection-engine';
import { ProjectionMetrics } from './projection-metrics';
import { ProjectionSlot } from './projection-slot';
import { assessHealth, type ProjectionStatus, type ProjectorHealth } from './projection-status';
import { RebuildCoordinator } from './rebuild-coordinator';
import { RetiredCollections } from './retired-collections';
import { resolveRunnerOptions, type ProjectionRunnerOptions, type ResolvedRunnerOptions } from './runner-options';
import { StoreSweep } from './store-sweep';
import { describeError } from './describe-error';
import { TurnTaskLookup } from './turn-task-lookup';

export type { ProjectionRunnerOptions } from './runner-options';

/**
 * Runs a set of projections: starts each one live when its alias already points at this version
 * (`<name>_v<version>`, or `<name>_v<version>_r<n>` after an operator's rebuild), otherwise
 * rebuilds it from the log into `<name>_v<version>` (one instance, under a lease) and switches the
 * alias (RebuildCoordinator); follows an operator's switch to a rebuilt collection of the same
 * version while live (LiveProjections.follow); applies live events from any feed (LiveProjections);
 * sweeps the store after each physical collection's checkpoint to repair what a feed missed and
 * to measure lag (StoreSweep). This class only wires them and answers for them.
 */
export class ProjectionRunner {
  readonly aliases: ProjectionAliases;
  private readonly options: ResolvedRunnerOptions;
  private readonly slots: ProjectionSlot[];
  private readonly live: LiveProjections;
  private readonly sweeps: StoreSweep;
  private readonly retired: RetiredCollections;
  private readonly rebuilds: RebuildCoordinator;
  /** Aborted by stop(): rebuild loops and rebuilds end at their next step. */
  private readonly stopping = new AbortController();
  private readyPromise: Promise<void> = Promise.resolve();

  constructor(options: ProjectionRunnerOptions) {
    const names = new Set<string>();
    for (const definition of options.projections) {
      assertProjectionShape(definition);
      if (names.has(definition.name)) throw new InvalidProjectionError(definition.name, 'defined twice');
      names.add(definition.name);
    }
    this.options = resolveRunnerOptions(options);
    const { documents, events, logger, now } = this.options;
    this.aliases = new ProjectionAliases(documents, { now });
    const checkpoints = new ProjectionCheckpoints(documents, now);
    this.retired = new RetiredCollections(documents, checkpoints, logger, this.options.dropRetiredAfterMs);
    const context = new TurnTaskLookup(events);
    this.slots = options.projections.map(
      (definition) => new ProjectionSlot(definition, physicalCollection(definition)),
    );
    const metrics = options.metrics ? new ProjectionMetrics(options.metrics, () => this.status()) : undefined;
    // An operator's rebuild switched a live slot's alias: sweep the new collection, retire the old.
    const adopted = (slot: ProjectionSlot, engine: ProjectionEngine, left: string) => {
      this.sweeps.sweepAdopted(slot, engine);
      this.retired
        .dropLater([left])
        .catch((error: unknown) =>
          this.options.logger.warn(
            { collection: left, error: describeError(error) },
            'dropping the left collection failed',
          ),
        );
    };
    this.live = new LiveProjections(this.slots, this.options, context, metrics, this.aliases, adopted);
    this.sweeps = new StoreSweep(this.slots, this.live, checkpoints, this.options);
    this.rebuilds = new RebuildCoordinator(
      this.slots,
      {
        aliases: this.aliases,
        checkpoints,
        retired: this.retired,
        live: this.live,
        sweep: this.sweeps,
        here: { documents, events, context, logger, batchSize: this.options.rebuildBatchSize },
        signal: this.stopping.signal,
      },
      this.options,
    );
  }

  /**
   * Resolves once the projections whose alias already names this version are live and caught up
   * with the store. Rebuilds go on in the background; `ready()` resolves when they switched too.
   */
  async start(): Promise<void> {
    const toRebuild = await this.rebuilds.startWhereSwitched();
    await this.sweeps.sweep();
    this.readyPromise = this.rebuilds.rebuildAll(toRebuild);
    // Failures are recorded on the slots (health shows them); ready() rethrows for callers that wait.
    this.readyPromise.catch(() => undefined);
  }

  /** Resolves when every projection is live (or superseded); rejects if a rebuild failed. */
  ready(): Promise<void> {
    return this.readyPromise;
  }

  /** Sweeps the store every `intervalMs` (repairs what a feed missed, refreshes lag). */
  startSweeping(intervalMs: number): void {
    this.sweeps.startSweeping(intervalMs);
  }

  /**
   * Applies events from a feed to every live projection, in order. Safe under duplicates and any
   * cross-stream order; a projection not live yet ignores them (its rebuild and sweep cover them).
   */
  apply(events: readonly EventEnvelope[]): Promise<void> {
    return this.live.apply(events);
  }

  /**
   * `listener` runs after every batch the live projections applied (from a feed or a sweep), so a
   * consistency wait in this process checks again at once; the result unsubscribes.
   */
  onApplied(listener: () => void): () => void {
    return this.live.onApplied(listener);
  }

  /** One pass over the store after each live collection's checkpoint, up to the head. */
  sweep(): Promise<void> {
    return this.sweeps.sweep();
  }

  status(): ProjectionStatus[] {
    return this.slots.map((slot) => slot.status());
  }

  health(): ProjectorHealth {
    return assessHealth(this.status(), this.options.maxLagSeconds);
  }

  /** Stops timers and rebuild loops and waits for the work in flight. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.sweeps.halt();
    this.retired.cancel();
    await this.readyPromise.catch(() => undefined);
    await this.sweeps.idle();
    await this.live.drain();
  }
}
