import type { ControllableClock, TestControl, TestCrashFault, TestFault, TestMutation } from '@lomo/contracts';

/** The faults as the HTTP surface shows and takes them. */
export interface TestFaults {
  duplicateCallbacks: boolean;
  lostCallbacks: boolean;
  lostWakeups: boolean;
  /** Armed: the next media job order recorded by this process is its last act (crash_after_media_order). */
  crashAfterMediaOrder: boolean;
}

export const faultKeys: Record<TestFault, keyof TestFaults> = {
  duplicate_callbacks: 'duplicateCallbacks',
  lost_callbacks: 'lostCallbacks',
  lost_wakeups: 'lostWakeups',
  crash_after_media_order: 'crashAfterMediaOrder',
};

/** How a crash point ends the process: a SIGKILL to itself, so nothing is flushed or shut down. */
export type Crash = (fault: TestCrashFault) => void;
const sigkillSelf: Crash = () => {
  process.kill(process.pid, 'SIGKILL');
};

/** Told when the faults change, so a fault that lives elsewhere (the simulated upstream) follows. */
export type FaultListener = (faults: TestFaults) => Promise<void>;

export interface TestControlSnapshot {
  now: string;
  offsetMs: number;
  faults: TestFaults;
  mutations: TestMutation[];
}

/**
 * The process's test control when LOMO_TEST_CONTROL=on: the simulated clock, the faults (changed
 * at run time) and the mutations (fixed at start: a safeguard that comes and goes mid-drill would
 * make its metric unreadable). Bound as TEST_CONTROL; guarded code sees only `mutation`/`fault`.
 */
export class TestControlState implements TestControl {
  readonly enabled = true;
  private faults: TestFaults;
  private readonly mutations: ReadonlySet<TestMutation>;
  private readonly listeners: FaultListener[] = [];
  private readonly crash: Crash;

  constructor(
    readonly clock: ControllableClock,
    options: { faults: readonly TestFault[]; mutations: readonly TestMutation[]; crash?: Crash },
  ) {
    this.faults = { duplicateCallbacks: false, lostCallbacks: false, lostWakeups: false, crashAfterMediaOrder: false };
    for (const fault of options.faults) this.faults[faultKeys[fault]] = true;
    this.mutations = new Set(options.mutations);
    this.crash = options.crash ?? sigkillSelf;
  }

  mutation(name: TestMutation): boolean {
    return this.mutations.has(name);
  }

  fault(name: TestFault): boolean {
    return this.faults[faultKeys[name]];
  }

  /**
   * A crash fault fires once per arming: it is disarmed before the kill, and a restarted process
   * starts disarmed (the environment cannot arm it; loadConfig refuses it in LOMO_TEST_FAULTS), so
   * the restart on the same data directory runs the recovery instead of crashing again.
   */
  crashPoint(name: TestCrashFault): void {
    const key = faultKeys[name];
    if (!this.faults[key]) return;
    this.faults = { ...this.faults, [key]: false };
    this.crash(name);
  }

  currentFaults(): TestFaults {
    return { ...this.faults };
  }

  /** Registers a follower and brings it up to date at once (faults set at start included). */
  async onFaults(listener: FaultListener): Promise<void> {
    this.listeners.push(listener);
    await listener(this.currentFaults());
  }

  /** Applies the given switches (the others stay) and waits for every follower. */
  async setFaults(change: Partial<TestFaults>): Promise<TestFaults> {
    this.faults = { ...this.faults, ...change };
    const faults = this.currentFaults();
    for (const listener of this.listeners) await listener(faults);
    return faults;
  }

  snapshot(): TestControlSnapshot {
    return {
      now: this.clock.now().toISOString(),
      offsetMs: this.clock.offsetMs,
      faults: this.currentFaults(),
      mutations: [...this.mutations].sort(),
    };
  }
}
