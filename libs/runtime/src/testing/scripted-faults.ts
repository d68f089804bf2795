import type { FaultContext, FaultInjector, FaultPoint } from '../faults/fault-injector';

export type FaultMatcher = (context: FaultContext) => boolean;

/** A worker held at a point until the test lets it go on (or makes it fail there). */
export interface Hang {
  /** Resolves with the context once a worker is held at the point. */
  readonly reached: Promise<FaultContext>;
  release(): void;
  fail(error: Error): void;
}

interface Rule {
  point: FaultPoint;
  matches: FaultMatcher;
  remaining: number;
  act: (context: FaultContext) => Promise<void> | undefined;
}

/**
 * The test-side injector: each rule fires for the first N matching visits of its point, then
 * stops matching, so a worker that passes the point again (a retry, the next step) is not held.
 */
export class ScriptedFaults implements FaultInjector {
  private readonly rules: Rule[] = [];
  private readonly visits: FaultContext[] = [];

  at(context: FaultContext): Promise<void> | undefined {
    this.visits.push(context);
    const rule = this.rules.find((r) => r.point === context.point && r.remaining > 0 && r.matches(context));
    if (rule === undefined) return undefined;
    rule.remaining -= 1;
    return rule.act(context);
  }

  /** Holds the first matching visit of `point` until released. */
  hang(point: FaultPoint, matches: FaultMatcher = () => true): Hang {
    let reach!: (context: FaultContext) => void;
    let release!: () => void;
    let fail!: (error: Error) => void;
    const reached = new Promise<FaultContext>((resolve) => (reach = resolve));
    const held = new Promise<void>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
    // A hang the test never reaches must not surface as an unhandled rejection.
    held.catch(() => undefined);
    this.rules.push({
      point,
      matches,
      remaining: 1,
      act: (context) => {
        reach(context);
        return held;
      },
    });
    return { reached, release: () => release(), fail: (error) => fail(error) };
  }

  /** Runs `action` at the first `times` matching visits (e.g. SIGKILL the process). */
  on(point: FaultPoint, action: (context: FaultContext) => void, matches: FaultMatcher = () => true, times = 1): void {
    this.rules.push({
      point,
      matches,
      remaining: times,
      act: (context) => {
        action(context);
        return undefined;
      },
    });
  }

  /** Visits of a point so far (whether or not a rule fired). */
  visitsOf(point: FaultPoint): FaultContext[] {
    return this.visits.filter((v) => v.point === point);
  }
}
