/** Who may run a relay now, and under which epoch. */
export interface RelayLease {
  relayId: string;
  holder: string;
  /**
   * Grows on every change of holder (release included) and never otherwise, so a write tagged
   * with an older epoch is provably from an instance that has been superseded.
   */
  epoch: number;
  /** Epoch milliseconds, by the clock of whoever last acquired or renewed it. */
  expiresAt: number;
}

/**
 * Where relay instances agree on the one active instance. Every method is one atomic step on
 * storage all instances share; clocks are passed in, so tests and every instance use the same
 * injected Clock.
 */
export interface RelayLeaseStore {
  /**
   * Takes the lease when nobody holds it, it expired, or `holder` already holds it (then it is
   * extended with the same epoch). Returns undefined while another holder's lease is live.
   */
  tryAcquire(relayId: string, holder: string, now: Date, ttlMs: number): Promise<RelayLease | undefined>;
  /**
   * Extends the lease if `holder` still holds it under `epoch`, even past its expiry (nobody took
   * it meanwhile, so nobody else published). false: another holder took it.
   */
  renew(relayId: string, holder: string, epoch: number, now: Date, ttlMs: number): Promise<boolean>;
  /** Gives the lease up so a standby takes it at once; a no-op unless held under `epoch`. */
  release(relayId: string, holder: string, epoch: number): Promise<void>;
  /** The lease as stored, or undefined when never taken. */
  current(relayId: string): Promise<RelayLease | undefined>;
}
