import type { Clock } from './clock';
import { LomoError } from './errors';

/**
 * Test control (LOMO_TEST_CONTROL=on, refused in production): the drills' simulated clock, fault
 * switches and mutation switches. The names are part of the drills' contract; their semantics
 * are documented in libs/platform/src/test-control/README.md.
 */

/** Faults the drills switch on at start (LOMO_TEST_FAULTS) or at run time (POST /test-control/faults). */
export const testFaultNames = [
  'duplicate_callbacks',
  'lost_callbacks',
  'lost_wakeups',
  'crash_after_media_order',
] as const;
export type TestFault = (typeof testFaultNames)[number];

/**
 * Crash faults: armed at run time only (POST /test-control/faults; LOMO_TEST_FAULTS refuses them,
 * or every restart would crash again), each fires once at its crash point: it disarms itself and
 * the process SIGKILLs itself there.
 */
export const testCrashFaultNames = ['crash_after_media_order'] as const satisfies readonly TestFault[];
export type TestCrashFault = (typeof testCrashFaultNames)[number];

/** Each disables one safeguard, so one collaboration metric can be shown to fail (LOMO_TEST_MUTATIONS). */
export const testMutationNames = [
  'no_fallback_card',
  'no_settled_check',
  'no_duplicate_check',
  'no_artifact_reuse',
  'no_routing_context',
  'no_change_notice',
  'no_forgetting_cascade',
  'no_language_carry',
  'no_budget_check',
] as const;
export type TestMutation = (typeof testMutationNames)[number];

/**
 * What guarded code asks. Production binds `testControlOff` (every answer false), so a guard is
 * one boolean read and the path it guards is unchanged.
 */
export interface TestControl {
  readonly enabled: boolean;
  /** Whether this safeguard is switched off for a drill. Fixed for the life of the process. */
  mutation(name: TestMutation): boolean;
  /** Whether this fault is on now (faults change at run time). */
  fault(name: TestFault): boolean;
  /**
   * A crash point: when its crash fault is armed, disarms it and SIGKILLs this process (no
   * return, nothing flushed: a crash); otherwise returns at once. With test control off, a no-op.
   * Optional so a test's own switches need not stub it; guarded code calls `crashPoint?.(...)`.
   */
  crashPoint?(name: TestCrashFault): void;
}

export const TEST_CONTROL = Symbol('TEST_CONTROL');

export const testControlOff: TestControl = {
  enabled: false,
  mutation: () => false,
  fault: () => false,
  crashPoint: () => undefined,
};

/** A clock the drills move: real time plus an offset, so timers keep running. */
export interface ControllableClock extends Clock {
  readonly offsetMs: number;
  /** Moves the clock forward by `ms` (≥ 0); returns the new now. */
  advance(ms: number): Date;
  /** Moves the clock to `instant`; never backwards (ClockBackwardsError). */
  set(instant: Date): Date;
}

/** A simulated clock never runs backwards: recorded times, leases and validity depend on it. */
export class ClockBackwardsError extends LomoError {
  readonly code = 'CLOCK_BACKWARDS';
  readonly retriable = false;
  constructor(now: Date, requested: Date) {
    super(`The simulated clock cannot go back from ${now.toISOString()} to ${requested.toISOString()}`, {
      now: now.toISOString(),
      requested: requested.toISOString(),
    });
  }
}
