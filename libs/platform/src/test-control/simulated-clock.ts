import { ClockBackwardsError, type Clock, type ControllableClock } from '@lomo/contracts';

/**
 * The drills' clock: real time plus an offset. It keeps running between moves, so the timers that
 * wait in real milliseconds (leases renewed, watchdog scans, polls) still fire, while everything
 * that reads CLOCK (recorded event times, lease expiry, memory validity, job timeouts) sees days
 * pass when a drill says so. It only moves forward: a clock that goes back would let a lease or a
 * reservation outlive its own expiry.
 */
export class SimulatedClock implements ControllableClock {
  private offset: number;

  constructor(
    private readonly real: Clock,
    start?: Date,
  ) {
    this.offset = start === undefined ? 0 : start.getTime() - real.now().getTime();
  }

  get offsetMs(): number {
    return this.offset;
  }

  now(): Date {
    return new Date(this.real.now().getTime() + this.offset);
  }

  advance(ms: number): Date {
    // The HTTP surface validates its input; a caller passing NaN or Infinity here is refused too.
    if (!Number.isFinite(ms)) throw new RangeError(`advance needs a finite number of milliseconds, got ${ms}`);
    if (ms < 0) throw new ClockBackwardsError(this.now(), new Date(this.now().getTime() + ms));
    this.offset += ms;
    return this.now();
  }

  set(instant: Date): Date {
    const now = this.now();
    if (instant.getTime() < now.getTime()) throw new ClockBackwardsError(now, instant);
    this.offset += instant.getTime() - now.getTime();
    return this.now();
  }
}
