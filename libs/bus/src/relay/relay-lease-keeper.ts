import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { systemClock, type Clock } from '@lomo/contracts';
import type { BusLogger } from '../logger';
import { RelayFencedError, RelayLeaseLapsedError } from './relay-errors';
import type { RelayLease, RelayLeaseStore } from './relay-lease.port';

export interface RelayLeaseOptions {
  store: RelayLeaseStore;
  /**
   * This instance's name in the lease. Must be unique per process incarnation: a restarted
   * process reusing a name would inherit the old one's epoch. Default: host, pid and a uuid.
   */
  holder?: string;
  /** How long the lease lives without a renewal. Default 10 s. */
  ttlMs?: number;
  /** Default ttlMs / 3, so two renewals may fail before the lease expires. */
  renewIntervalMs?: number;
  /** How often a standby tries to take the lease. Default ttlMs / 3. */
  acquireIntervalMs?: number;
  clock?: Clock;
}

/**
 * Holds one relay instance's lease: waits for it as a standby, renews it while active, and says
 * at once when it is gone. It is what keeps the active instance unique while everyone is healthy;
 * safety against an instance that was paused and wakes up comes from the epoch fence (see
 * RelayPublisher), since a paused process cannot notice that its lease expired.
 */
export class RelayLeaseKeeper {
  readonly holder: string;
  private readonly ttlMs: number;
  private readonly renewIntervalMs: number;
  private readonly acquireIntervalMs: number;
  private readonly clock: Clock;
  private held: RelayLease | undefined;
  /** Set when a renewal was refused: another holder has the lease, for good. */
  private superseded = false;
  private renewTimer: NodeJS.Timeout | undefined;
  /** Bumped by stopRenewing, so a renewal still in flight from before schedules no next one. */
  private renewals = 0;

  constructor(
    private readonly relayId: string,
    private readonly options: RelayLeaseOptions,
    private readonly logger: BusLogger,
    private readonly onLost: () => void,
  ) {
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.ttlMs = options.ttlMs ?? 10_000;
    this.renewIntervalMs = options.renewIntervalMs ?? Math.max(1, Math.floor(this.ttlMs / 3));
    this.acquireIntervalMs = options.acquireIntervalMs ?? Math.max(1, Math.floor(this.ttlMs / 3));
    this.clock = options.clock ?? systemClock;
  }

  get epoch(): number | undefined {
    return this.held?.epoch;
  }

  /** Tries every acquireIntervalMs until the lease is ours; undefined once `signal` aborts. */
  async acquire(signal: AbortSignal): Promise<RelayLease | undefined> {
    this.stopRenewing();
    this.superseded = false;
    while (!signal.aborted) {
      try {
        const lease = await this.options.store.tryAcquire(this.relayId, this.holder, this.clock.now(), this.ttlMs);
        if (lease) {
          this.held = lease;
          this.scheduleRenewal();
          return lease;
        }
      } catch (error) {
        this.logger.warn({ err: error, relayId: this.relayId, holder: this.holder }, 'relay lease acquire failed');
      }
      await sleep(this.acquireIntervalMs, signal);
    }
    return undefined;
  }

  /**
   * Throws unless this instance may publish now: RelayFencedError once a renewal was refused,
   * RelayLeaseLapsedError when renewals kept failing until the lease expired by our clock.
   */
  assertHeld(): number {
    const held = this.held;
    if (this.superseded && held) throw new RelayFencedError(this.relayId, held.epoch, 'lease renewal refused');
    if (!held) throw new RelayLeaseLapsedError(this.relayId, 'not active');
    if (this.clock.now().getTime() >= held.expiresAt) {
      throw new RelayLeaseLapsedError(this.relayId, 'renewals failed until the lease expired');
    }
    return held.epoch;
  }

  /** Reads the store: does the lease still name us under our epoch? Throws when unreadable. */
  async stillHeld(): Promise<boolean> {
    const held = this.held;
    if (!held) return false;
    const current = await this.options.store.current(this.relayId);
    return current?.holder === this.holder && current.epoch === held.epoch;
  }

  /** Stops renewing and gives the lease up, so a standby takes over without waiting out the TTL. */
  async release(): Promise<void> {
    this.stopRenewing();
    const held = this.held;
    this.held = undefined;
    if (!held || this.superseded) return;
    try {
      await this.options.store.release(this.relayId, this.holder, held.epoch);
    } catch (error) {
      // The standby then waits for the TTL instead: slower, never unsafe.
      this.logger.warn({ err: error, relayId: this.relayId, epoch: held.epoch }, 'relay lease release failed');
    }
  }

  /** Stops renewing without releasing (the lease then expires on its own). */
  stopRenewing(): void {
    this.renewals += 1;
    if (this.renewTimer) clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
  }

  private scheduleRenewal(): void {
    const generation = this.renewals;
    this.renewTimer = setTimeout(() => void this.renew(generation), this.renewIntervalMs);
  }

  private async renew(generation: number): Promise<void> {
    const held = this.held;
    if (!held || generation !== this.renewals) return;
    const now = this.clock.now();
    try {
      const renewed = await this.options.store.renew(this.relayId, this.holder, held.epoch, now, this.ttlMs);
      if (generation !== this.renewals) return;
      if (!renewed) {
        this.superseded = true;
        this.logger.error(
          { relayId: this.relayId, holder: this.holder, epoch: held.epoch },
          'relay lease renewal refused: another instance took over',
        );
        this.onLost();
        return;
      }
      this.held = { ...held, expiresAt: now.getTime() + this.ttlMs };
    } catch (error) {
      // Keep trying; assertHeld() stops publishing once the lease expires by our clock.
      this.logger.warn({ err: error, relayId: this.relayId, epoch: held.epoch }, 'relay lease renewal failed');
    }
    if (generation === this.renewals) this.scheduleRenewal();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
