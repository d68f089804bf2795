/** Cancels a scheduled callback; harmless after it ran. */
export type CancelTimer = () => void;

/** Delayed callbacks, injected so tests move time by hand (see ManualTimer). */
export interface Timer {
  schedule(delayMs: number, callback: () => void): CancelTimer;
}

export const systemTimer: Timer = {
  schedule(delayMs, callback) {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    // A pending job must not keep a process alive: it is durable and resumes at the next start.
    handle.unref();
    return () => clearTimeout(handle);
  },
};
