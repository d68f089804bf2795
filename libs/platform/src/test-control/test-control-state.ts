import type { ControllableClock, TestControl, TestFault, TestMutation } from '@lomo/contracts';

/** The faults as the HTTP surface shows and takes them. */
export interface TestFaults {
  duplicateCallbacks: boolean;
  lostCallbacks: boolean;
  lostWakeups: boolean;
}

export const faultKeys: Record<TestFault, keyof TestFaults> = {
  duplicate_callbacks: 'duplicateCallbacks',
  lost_callbacks: 'lostCallbacks',
  lost_wakeups: 'lostWakeups',
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

  constructor(
    readonly clock: ControllableClock,
    options: { faults: readonly TestFault[]; mutations: readonly TestMutation[] },
  ) {
    this.faults = { duplicateCallbacks: false, lostCallbacks: false, lostWakeups: false };
    for (const fault of options.faults) this.faults[faultKeys[fault]] = true;
    this.mutations = new Set(options.mutations);
  }

  mutation(name: TestMutation): boolean {
    return this.mutations.has(name);
  }

  fault(name: TestFault): boolean {
    return this.faults[faultKeys[name]];
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
