import type { AnyProjection } from './projection-definition';
import type { ProjectionEngine } from './projection-engine';
import type { ProjectionStatus } from './projection-status';

/**
 * Where a slot stands (the states of projection-status.ts); only a live slot has an engine, only
 * a failed one an error.
 */
export type SlotPhase =
  | { readonly state: 'starting' }
  | { readonly state: 'rebuilding' }
  | { readonly state: 'waiting' }
  | { readonly state: 'live'; readonly engine: ProjectionEngine }
  | { readonly state: 'superseded' }
  | { readonly state: 'failed'; readonly error: string };

export type LivePhase = Extract<SlotPhase, { state: 'live' }>;

/** One projection of a runner: its definition, physical collection, phase and the figures /health shows. */
export class ProjectionSlot {
  phase: SlotPhase = { state: 'starting' };
  /** Figures of the last sweep (store-sweep.ts); kept through every phase. */
  lag = { events: 0, seconds: 0, lastSweepAt: null as string | null };
  /** Events read by the rebuild in progress, or the last one. */
  rebuiltEvents = 0;

  /**
   * The collection this slot writes: `<name>_v<version>` when it builds it, or whichever collection
   * of this version the alias names when the slot goes live (an operator's rebuild, `_r<n>`).
   */
  physical: string;

  constructor(
    readonly definition: AnyProjection,
    physical: string,
  ) {
    this.physical = physical;
  }

  status(): ProjectionStatus {
    const { phase } = this;
    return {
      name: this.definition.name,
      version: this.definition.version,
      collection: this.physical,
      state: phase.state,
      lagEvents: this.lag.events,
      lagSeconds: this.lag.seconds,
      lastSweepAt: this.lag.lastSweepAt,
      rebuiltEvents: this.rebuiltEvents,
      error: phase.state === 'failed' ? phase.error : null,
    };
  }
}
