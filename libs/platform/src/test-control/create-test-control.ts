import type { LomoConfig } from '@lomo/config';
import { systemClock, testControlOff, type Clock, type TestControl } from '@lomo/contracts';
import { SimulatedClock } from './simulated-clock';
import { TestControlState } from './test-control-state';

/** The HTTP surface needs the state itself; guarded code gets the TestControl port. */
export const TEST_CONTROL_STATE = Symbol('TEST_CONTROL_STATE');

/**
 * What CLOCK and TEST_CONTROL are in this process: with test control off (always in production,
 * loadConfig refuses the rest), the system clock and every switch off; with it on, the simulated
 * clock and the switches LOMO_TEST_FAULTS / LOMO_TEST_MUTATIONS name.
 */
export function createTestControl(
  config: Pick<LomoConfig, 'LOMO_TEST_CONTROL' | 'LOMO_TEST_CLOCK_START' | 'LOMO_TEST_FAULTS' | 'LOMO_TEST_MUTATIONS'>,
  real: Clock = systemClock,
): { clock: Clock; control: TestControl; state: TestControlState | null } {
  if (config.LOMO_TEST_CONTROL !== 'on') return { clock: real, control: testControlOff, state: null };
  const start = config.LOMO_TEST_CLOCK_START === undefined ? undefined : new Date(config.LOMO_TEST_CLOCK_START);
  const clock = new SimulatedClock(real, start);
  const state = new TestControlState(clock, { faults: config.LOMO_TEST_FAULTS, mutations: config.LOMO_TEST_MUTATIONS });
  return { clock, control: state, state };
}
