import type { Position } from '@lomo/eventstore';
import type { LiveProjections } from './live-projections';
import type { ProjectionCheckpoints } from './projection-checkpoints';
import type { ProjectionEngine } from './projection-engine';
import type { ProjectionSlot } from './projection-slot';
import { prefixesOf } from './rebuild';
import type { ResolvedRunnerOptions } from './runner-options';
import { describeError } from './describe-error';

/**
 * Reads the store after each live collection's checkpoint up to the head: applies what the feeds
 * missed (or had not delivered yet) and measures the lag from it. Once, or every interval.
 */
export class StoreSweep {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly slots: readonly ProjectionSlot[],
    private readonly live: LiveProjections,
    private readonly checkpoints: ProjectionCheckpoints,
    private readonly options: ResolvedRunnerOptions,
  ) {}

  private readonly adoptions = new Set<Promise<void>>();

  /** One pass over every live slot, each first following its alias (LiveProjections.follow). */
  async sweep(): Promise<void> {
    for (const slot of this.slots) {
      if (slot.phase.state !== 'live') continue;
      const engine = await this.live.exclusive(() => this.live.follow(slot, true));
      if (engine !== undefined) await this.sweepSlot(slot, engine);
    }
  }

  /**
   * After a slot moved to a rebuilt collection: sweeps it from that collection's checkpoint in the
   * background (the move happens inside a batch, which a sweep page must not wait for).
   */
  sweepAdopted(slot: ProjectionSlot, engine: ProjectionEngine): void {
    const done = this.sweepSlot(slot, engine)
      .catch((error: unknown) =>
        this.options.logger.error(
          { projection: slot.definition.name, collection: engine.collection, error: describeError(error) },
          'sweep of an adopted collection failed; the next sweep repeats it',
        ),
      )
      .finally(() => this.adoptions.delete(done));
    this.adoptions.add(done);
  }

  /** Sweeps every `intervalMs` until halt(); a failed pass is logged and the next tick tries again. */
  startSweeping(intervalMs: number): void {
    if (this.timer !== undefined || this.stopped) return;
    const tick = async () => {
      try {
        this.inFlight = this.sweep();
        await this.inFlight;
      } catch (error) {
        this.options.logger.error({ error: describeError(error) }, 'store sweep failed; retrying at the next tick');
      } finally {
        this.inFlight = undefined;
        if (!this.stopped) this.timer = setTimeout(() => void tick(), intervalMs).unref();
      }
    };
    this.timer = setTimeout(() => void tick(), intervalMs).unref();
  }

  /** No further ticks. */
  halt(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
  }

  /** Resolves once the timed pass in flight (if any) ended, however it ended. */
  async idle(): Promise<void> {
    await this.inFlight?.catch(() => undefined);
    await Promise.all([...this.adoptions]);
  }

  /**
   * Sweeps one engine's collection from its checkpoint. Stops early when the slot moved to another
   * engine meanwhile (an alias switch): that move sweeps the new collection itself.
   */
  async sweepSlot(slot: ProjectionSlot, engine: ProjectionEngine): Promise<void> {
    const { events, sweepBatchSize: batchSize, now } = this.options;
    const filter = { streamPrefixes: prefixesOf([slot.definition]) };
    const collection = engine.collection;
    let position: Position | undefined = await this.checkpoints.get(collection);
    let behind = 0;
    let oldest: string | undefined;
    for (;;) {
      const page = await events.readAll({ fromPosition: position ?? 'start', filter, maxCount: batchSize });
      if (page.length === 0) break;
      const applied = await this.live.exclusive(async () => {
        if (!isEngineOf(slot, engine)) return false;
        // Measured before applying: what the feeds had not delivered yet is the lag.
        await engine.streams.preload(page.map((e) => e.metadata.streamId));
        for (const event of page) {
          if ((await engine.streams.revision(event.metadata.streamId)) >= event.metadata.revision) continue;
          behind += 1;
          oldest ??= event.metadata.occurredAt;
        }
        await this.live.applyTo(slot, engine, page);
        return true;
      });
      if (!applied) return;
      position = page[page.length - 1].metadata.globalPosition;
      await this.checkpoints.save(collection, position);
      if (page.length < batchSize) break;
    }
    slot.lag = {
      events: behind,
      seconds: oldest === undefined ? 0 : Math.max(0, (now().getTime() - Date.parse(oldest)) / 1000),
      lastSweepAt: now().toISOString(),
    };
  }
}

/** Whether the slot still writes through this engine (it is live and did not move). */
const isEngineOf = (slot: ProjectionSlot, engine: ProjectionEngine): boolean =>
  slot.phase.state === 'live' && slot.phase.engine === engine;
