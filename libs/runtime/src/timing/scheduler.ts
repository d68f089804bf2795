/**
 * Repeating work (lease renewal, the watchdog) goes through this port so tests decide when it
 * runs: a hung worker in a takeover test must not renew its lease behind the test's back.
 */
export interface Scheduler {
  /** Runs `task` every `intervalMs`; a run never overlaps the previous one. Returns a cancel. */
  every(name: string, intervalMs: number, task: () => Promise<void>): () => void;
}

/** Real timers, unref'd so they never keep a process alive on their own. */
export const timerScheduler: Scheduler = {
  every(_name, intervalMs, task) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      void task().finally(() => {
        running = false;
      });
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  },
};
