import { ClockBackwardsError, type Clock } from '@lomo/contracts';
import { createTestControl } from './create-test-control';
import { SimulatedClock } from './simulated-clock';

/** A real clock the test moves by hand, to show the simulated one keeps running with it. */
const realAt = (iso: string) => {
  let ms = Date.parse(iso);
  const clock: Clock & { tick(n: number): void } = { now: () => new Date(ms), tick: (n) => (ms += n) };
  return clock;
};

describe('SimulatedClock', () => {
  it('starts at the given instant and keeps running with real time', () => {
    const real = realAt('2026-12-06T23:00:00.000Z');
    const clock = new SimulatedClock(real, new Date('2026-01-05T09:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2026-01-05T09:00:00.000Z');
    real.tick(1_500);
    expect(clock.now().toISOString()).toBe('2026-01-05T09:00:01.500Z');
    expect(clock.offsetMs).toBe(Date.parse('2026-01-05T09:00:00Z') - Date.parse('2026-12-06T23:00:00Z'));
  });

  it('is the real time without a start', () => {
    const real = realAt('2026-12-06T23:00:00.000Z');
    expect(new SimulatedClock(real).now().toISOString()).toBe('2026-12-06T23:00:00.000Z');
  });

  it('advances by a number of milliseconds, days at a time', () => {
    const real = realAt('2026-12-06T23:00:00.000Z');
    const clock = new SimulatedClock(real);
    expect(clock.advance(3 * 86_400_000).toISOString()).toBe('2026-12-09T23:00:00.000Z');
    real.tick(10);
    expect(clock.now().toISOString()).toBe('2026-12-09T23:00:00.010Z');
    expect(clock.offsetMs).toBe(3 * 86_400_000);
  });

  it('is set to a later instant, and to now itself', () => {
    const clock = new SimulatedClock(realAt('2026-12-06T23:00:00.000Z'));
    expect(clock.set(new Date('2027-02-01T00:00:00.000Z')).toISOString()).toBe('2027-02-01T00:00:00.000Z');
    expect(clock.set(new Date('2027-02-01T00:00:00.000Z')).toISOString()).toBe('2027-02-01T00:00:00.000Z');
  });

  it('never goes backwards: a typed error, and the clock is unchanged', () => {
    const clock = new SimulatedClock(realAt('2026-12-06T23:00:00.000Z'));
    expect(() => clock.set(new Date('2026-12-06T22:59:59.999Z'))).toThrow(ClockBackwardsError);
    expect(() => clock.advance(-1)).toThrow(ClockBackwardsError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
    try {
      clock.advance(-5);
    } catch (error) {
      expect(error).toMatchObject({ code: 'CLOCK_BACKWARDS', retriable: false });
    }
    expect(clock.offsetMs).toBe(0);
  });
});

describe('createTestControl', () => {
  const off = { LOMO_TEST_CONTROL: 'off', LOMO_TEST_FAULTS: [], LOMO_TEST_MUTATIONS: [] } as const;

  it('off: the real clock, every switch off, no state', () => {
    const real = realAt('2026-12-06T23:00:00.000Z');
    const made = createTestControl(off, real);
    expect(made.clock).toBe(real);
    expect(made.state).toBeNull();
    expect(made.control.mutation('no_budget_check')).toBe(false);
    expect(made.control.fault('lost_wakeups')).toBe(false);
  });

  it('on: the simulated clock from its start, the switches the environment named', async () => {
    const made = createTestControl(
      {
        LOMO_TEST_CONTROL: 'on',
        LOMO_TEST_CLOCK_START: '2026-01-05T09:00:00.000Z',
        LOMO_TEST_FAULTS: ['lost_wakeups'],
        LOMO_TEST_MUTATIONS: ['no_change_notice'],
      },
      realAt('2026-12-06T23:00:00.000Z'),
    );
    expect(made.clock.now().toISOString()).toBe('2026-01-05T09:00:00.000Z');
    expect(made.control.mutation('no_change_notice')).toBe(true);
    expect(made.control.mutation('no_budget_check')).toBe(false);
    expect(made.control.fault('lost_wakeups')).toBe(true);
    const seen: unknown[] = [];
    await made.state!.onFaults(async (f) => void seen.push(f));
    await made.state!.setFaults({ duplicateCallbacks: true });
    expect(made.control.fault('duplicate_callbacks')).toBe(true);
    expect(seen).toEqual([
      { duplicateCallbacks: false, lostCallbacks: false, lostWakeups: true, crashAfterMediaOrder: false },
      { duplicateCallbacks: true, lostCallbacks: false, lostWakeups: true, crashAfterMediaOrder: false },
    ]);
    expect(made.state!.snapshot()).toMatchObject({ mutations: ['no_change_notice'], now: '2026-01-05T09:00:00.000Z' });
  });
});
