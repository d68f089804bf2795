import { RebuildInterruptedError } from './errors';
import type { LiveProjections } from './live-projections';
import type { ProjectionAliases } from './projection-aliases';
import type { ProjectionCheckpoints } from './projection-checkpoints';
import type { ProjectionSlot } from './projection-slot';
import type { RebuildResult } from './rebuild';
import type { RebuildEnvironment, RebuildGroup } from './rebuild-executor.port';
import { RebuildLease } from './rebuild-lease';
import type { RetiredCollections } from './retired-collections';
import type { ResolvedRunnerOptions } from './runner-options';
import type { StoreSweep } from './store-sweep';
import { describeError } from './describe-error';
import { isCollectionOf } from './physical-names';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
export interface RebuildCoordinatorParts {
  aliases: ProjectionAliases;
  checkpoints: ProjectionCheckpoints;
  retired: RetiredCollections;
  live: LiveProjections;
  sweep: StoreSweep;
  /** The calling thread's stores, for the executor. */
  here: RebuildEnvironment;
  /** Aborted by the runner's stop(). */
  signal: AbortSignal;
}

/**
 * Brings each slot to its version's collection: live at once when the alias already names it;
 * otherwise rebuilt by this instance under a lease (by the configured RebuildExecutor) and
 * switched, or, when another instance holds the lease, adopted once that one switched. Retires
 * the collections a switch replaced (DESIGN.md §4, "Read models").
 */
export class RebuildCoordinator {
  constructor(
    private readonly slots: readonly ProjectionSlot[],
    private readonly parts: RebuildCoordinatorParts,
    private readonly options: ResolvedRunnerOptions,
  ) {}

  /**
   * Starts live the slots whose alias names a collection of their version (the first build, or an
   * operator's rebuild of it); returns those that need a rebuild.
   */
  async startWhereSwitched(): Promise<ProjectionSlot[]> {
    const { aliases, live, retired } = this.parts;
    const toRebuild: ProjectionSlot[] = [];
    for (const slot of this.slots) {
      const alias = await aliases.read(slot.definition.name);
      if (alias?.version != null && alias.version > slot.definition.version) {
        slot.phase = { state: 'superseded' };
        this.options.logger.warn(
          { projection: slot.definition.name, version: slot.definition.version, aliasVersion: alias.version },
          'a newer version of this projection is live; this instance leaves it alone',
        );
      } else if (alias?.collection != null && isCollectionOf(slot.definition, alias.collection)) {
        slot.physical = alias.collection;
        await this.options.documents.ensureIndexes(slot.physical, slot.definition.indexes);
        live.goLive(slot);
        await retired.dropLeftovers(slot.definition, alias, this.options.now());
      } else {
        toRebuild.push(slot);
      }
    }
    return toRebuild;
  }

  /** Until every slot is live or superseded (or stop() was called); rejects with the first failure. */
  async rebuildAll(slots: readonly ProjectionSlot[]): Promise<void> {
    let pending = [...slots];
    while (pending.length > 0 && !this.parts.signal.aborted) {
      const claimed: ProjectionSlot[] = [];
      const waiting: ProjectionSlot[] = [];
      for (const slot of pending) {
        const claim = await this.claim(slot);
        if (claim === 'claimed') claimed.push(slot);
        else if (claim === 'taken') waiting.push(slot);
        else await this.adoptSwitched(slot);
      }
      if (claimed.length > 0) await this.rebuildAndSwitch(claimed);
      pending = waiting;
      for (const slot of waiting) slot.phase = { state: 'waiting' };
      if (pending.length > 0) await sleep(this.options.rebuildWaitPollMs);
    }
  }

  private claim(slot: ProjectionSlot) {
    const { name, version } = slot.definition;
    const { instanceId, rebuildLeaseMs } = this.options;
    return this.parts.aliases.claimRebuild(name, version, slot.physical, instanceId, rebuildLeaseMs);
  }

  /**
   * Another instance rebuilt and switched (and an operator may have rebuilt it again since): start
   * live on the alias's collection of this version from its checkpoint.
   */
  private async adoptSwitched(slot: ProjectionSlot): Promise<void> {
    const alias = await this.parts.aliases.read(slot.definition.name);
    if (alias?.collection == null || !isCollectionOf(slot.definition, alias.collection)) {
      slot.phase = { state: 'superseded' };
      return;
    }
    slot.physical = alias.collection;
    await this.goLiveAndSweep(slot);
  }

  /**
   * Rebuilds the claimed slots in the executor's groups and switches each group's aliases as soon
   * as that group is done. A group that fails marks its own slots failed; the others go on. The
   * first failure is rethrown once every group ended.
   */
  private async rebuildAndSwitch(slots: ProjectionSlot[]): Promise<void> {
    // One lease covers every claimed slot, renewed on any group's progress.
    const lease = new RebuildLease(
      async () => {
        for (const slot of slots) await this.claim(slot);
      },
      this.options.rebuildLeaseMs,
      this.options.now,
    );
    for (const slot of slots) {
      slot.phase = { state: 'rebuilding' };
      slot.rebuiltEvents = 0;
    }
    // A slot is a RebuildTarget (definition, physical): the groups hand the slots back.
    const groups = await this.options.rebuildExecutor.plan(slots, this.parts.here);
    const runs = groups.map((group) => this.rebuildGroup(group, lease));
    const failures = (await Promise.all(runs)).filter((error) => error !== undefined);
    if (failures.length > 0) throw failures[0];
  }

  /** One group: rebuilt, then switched. Resolves with its error instead of rejecting. */
  private async rebuildGroup(group: RebuildGroup<ProjectionSlot>, lease: RebuildLease): Promise<unknown> {
    const slots = group.targets;
    const names = slots.map((s) => s.definition.name);
    try {
      const result = await group.run({
        signal: this.parts.signal,
        progress: (events) => {
          for (const slot of slots) slot.rebuiltEvents = events;
        },
        renewLease: () => lease.renewIfDue(),
      });
      await this.switchRebuilt(slots, result);
      return undefined;
    } catch (error) {
      if (error instanceof RebuildInterruptedError) {
        this.options.logger.info(
          { projections: names },
          'rebuild interrupted by a stop; the next start begins it again',
        );
        return undefined;
      }
      for (const slot of slots) slot.phase = { state: 'failed', error: describeError(error) };
      this.options.logger.error({ projections: names, error: describeError(error) }, 'rebuild failed');
      return error;
    }
  }

  private async switchRebuilt(slots: readonly ProjectionSlot[], result: RebuildResult): Promise<void> {
    const { aliases, checkpoints, retired } = this.parts;
    for (const slot of slots) {
      if (result.position !== undefined) await checkpoints.save(slot.physical, result.position);
      const retiredNow = await aliases.switchTo(slot.definition.name, slot.definition.version, slot.physical);
      this.options.logger.info(
        { projection: slot.definition.name, collection: slot.physical, retired: retiredNow, events: result.events },
        'alias switched to the rebuilt collection',
      );
      // Then the events appended after the rebuild's last read, which the feeds skipped meanwhile.
      await this.goLiveAndSweep(slot);
      await retired.dropLater(retiredNow);
    }
  }

  private async goLiveAndSweep(slot: ProjectionSlot): Promise<void> {
    const { live, sweep } = this.parts;
    const engine = await live.exclusive(async () => live.goLive(slot));
    await sweep.sweepSlot(slot, engine);
  }
}
