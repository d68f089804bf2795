/**
 * The wait between rounds of a polling loop, which a nudge (an append, a stop, a state change)
 * ends early. A nudge that comes while the loop is busy is remembered until the loop begins its
 * next round, so the wait after that round returns at once instead of sleeping through it.
 */
export class NudgeableWait {
  private nudged = false;
  private wake: (() => void) | undefined;

  /** Called at the top of a round, before reading: earlier nudges are answered by this round. */
  beginRound(): void {
    this.nudged = false;
  }

  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Resolves after `ms`, or at the first nudge; at once when one came since `beginRound`. */
  wait(ms: number, options: { unref?: boolean } = {}): Promise<void> {
    if (this.nudged) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      if (options.unref === true) timer.unref();
      this.wake = done;
    });
  }
}
