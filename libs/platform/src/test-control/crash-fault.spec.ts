import { ConfigError, testControlOff, type TestCrashFault } from '@lomo/contracts';
import { loadConfig } from '@lomo/config';
import { createTestControl } from './create-test-control';
import { SimulatedClock } from './simulated-clock';
import { TestControlState } from './test-control-state';

// The crash fault `crash_after_media_order` (README.md, "Fault switches"): armed at run time, it
// fires once, SIGKILLing the process at its crash point; never with test control off, and never
// from the environment (a restarted process would crash again).

const stateWith = (crash: (fault: TestCrashFault) => void) =>
  new TestControlState(new SimulatedClock({ now: () => new Date('2026-12-07T02:00:00.000Z') }), {
    faults: [],
    mutations: [],
    crash,
  });

describe('crash_after_media_order', () => {
  it('test control off: the crash point is a no-op, and the environment cannot arm it', () => {
    const made = createTestControl({ LOMO_TEST_CONTROL: 'off', LOMO_TEST_FAULTS: [], LOMO_TEST_MUTATIONS: [] });
    expect(made.control).toBe(testControlOff);
    // Would SIGKILL this jest worker if it fired.
    made.control.crashPoint?.('crash_after_media_order');
    expect(made.control.fault('crash_after_media_order')).toBe(false);
    expect(() => loadConfig({ LOMO_TEST_FAULTS: 'crash_after_media_order' })).toThrow(
      /LOMO_TEST_FAULTS: needs LOMO_TEST_CONTROL=on/,
    );
  });

  it('is refused in LOMO_TEST_FAULTS even with test control on: it is armed at run time only', () => {
    expect(() =>
      loadConfig({
        LOMO_TEST_CONTROL: 'on',
        NODE_ENV: 'test',
        LOMO_TEST_FAULTS: 'lost_wakeups,crash_after_media_order',
      }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({ LOMO_TEST_CONTROL: 'on', NODE_ENV: 'test', LOMO_TEST_FAULTS: 'crash_after_media_order' }),
    ).toThrow(/crash_after_media_order is armed at run time only \(POST \/test-control\/faults\)/);
  });

  it('unarmed: the crash point returns at once', () => {
    const crash = jest.fn();
    const state = stateWith(crash);
    state.crashPoint('crash_after_media_order');
    expect(crash).not.toHaveBeenCalled();
    expect(state.snapshot().faults.crashAfterMediaOrder).toBe(false);
  });

  it('armed: fires once, disarming itself before the kill, and again only when armed again', async () => {
    const seenArmed: boolean[] = [];
    const state = stateWith(() => seenArmed.push(state.fault('crash_after_media_order')));
    await state.setFaults({ crashAfterMediaOrder: true });
    expect(state.snapshot().faults).toMatchObject({ crashAfterMediaOrder: true, lostWakeups: false });
    state.crashPoint('crash_after_media_order');
    state.crashPoint('crash_after_media_order');
    // Disarmed when the kill went out: a process that outlived it (or a restart) would not fire again.
    expect(seenArmed).toEqual([false]);
    expect(state.snapshot().faults.crashAfterMediaOrder).toBe(false);
    await state.setFaults({ crashAfterMediaOrder: true });
    state.crashPoint('crash_after_media_order');
    expect(seenArmed).toEqual([false, false]);
  });

  it('the crash is a SIGKILL of this process', async () => {
    const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
    try {
      const { state } = createTestControl({ LOMO_TEST_CONTROL: 'on', LOMO_TEST_FAULTS: [], LOMO_TEST_MUTATIONS: [] });
      await state!.setFaults({ crashAfterMediaOrder: true });
      state!.crashPoint('crash_after_media_order');
      expect(kill).toHaveBeenCalledTimes(1);
      expect(kill).toHaveBeenCalledWith(process.pid, 'SIGKILL');
    } finally {
      kill.mockRestore();
    }
  });
});
