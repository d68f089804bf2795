import type { BusLogger } from '../logger';
import { RelayFencedError, RelayLeaseLapsedError } from './relay-errors';
import { RelayLeaseKeeper, type RelayLeaseOptions } from './relay-lease-keeper';
import type { RelayPublisher } from './relay-publisher.port';

/**
 * The relay's terms of office: when it may publish and under which epoch. Without a lease every
 * activation is epoch 0 and only the publisher can fence it; with one, a term starts when the
 * lease is acquired and the publisher activated, and ends on any failure, so the next term
 * re-confirms the lease before publishing again.
 */
export class RelayTerms {
  private readonly keeper: RelayLeaseKeeper | undefined;
  private epoch: number | undefined;
  private last = 0;
  private lost = new AbortController();

  constructor(
    private readonly relayId: string,
    private readonly publisher: RelayPublisher,
    lease: RelayLeaseOptions | undefined,
    private readonly logger: BusLogger,
    onLost: () => void,
  ) {
    this.keeper =
      lease &&
      new RelayLeaseKeeper(relayId, lease, logger, () => {
        this.lost.abort();
        onLost();
      });
  }

  get leased(): boolean {
    return this.keeper !== undefined;
  }

  /** The epoch of the current term, while one is running. */
  get current(): number | undefined {
    return this.epoch;
  }

  /** The epoch of the latest term, running or not. */
  get lastEpoch(): number {
    return this.last;
  }

  get holder(): string | undefined {
    return this.keeper?.holder;
  }

  /** Aborted when the lease is lost, so a round not yet committed never commits. */
  get signal(): AbortSignal {
    return this.lost.signal;
  }

  /** Waits for the lease; its epoch, or undefined once `stop` aborts. Epoch 0 without a lease. */
  async acquire(stop: AbortSignal): Promise<number | undefined> {
    if (!this.keeper) return 0;
    return (await this.keeper.acquire(stop))?.epoch;
  }

  /**
   * Activates the publisher for `epoch` (fencing every older writer), then re-reads the lease.
   * false: it moved meanwhile, so our activation fenced the new holder's writer instead; that
   * holder re-activates and fences us back, and we must not publish.
   */
  async begin(epoch: number): Promise<boolean> {
    await this.publisher.activate(epoch);
    if (this.keeper && !(await this.keeper.stillHeld())) return false;
    this.lost = new AbortController();
    this.epoch = epoch;
    this.last = epoch;
    return true;
  }

  /** After a failure: the next round starts a new term. */
  end(): void {
    this.epoch = undefined;
  }

  /** The epoch to publish under now; throws when the lease is lapsed or lost. */
  assertHeld(): number {
    if (this.keeper) return this.keeper.assertHeld();
    if (this.epoch === undefined) throw new RelayLeaseLapsedError(this.relayId, 'not active');
    return this.epoch;
  }

  /**
   * Before the checkpoint moves: a superseded instance must not move it (it could move it back).
   * This check and the save are not atomic; losing that race only re-publishes, never skips.
   */
  async confirm(epoch: number): Promise<void> {
    if (this.keeper && !(await this.keeper.stillHeld())) {
      throw new RelayFencedError(this.relayId, epoch, 'the lease moved before the checkpoint was saved');
    }
  }

  /**
   * A fence or a lapsed lease is final only when the lease names someone else: Kafka also fences
   * a current holder when a stale instance re-initialized the shared transactional id, and a
   * lapsed lease nobody took can simply be renewed.
   */
  async isFencedForGood(error: unknown): Promise<boolean> {
    if (!(error instanceof RelayFencedError) && !(error instanceof RelayLeaseLapsedError)) return false;
    if (!this.keeper) return error instanceof RelayFencedError;
    try {
      return !(await this.keeper.stillHeld());
    } catch (readFailure) {
      this.logger.warn({ err: readFailure, relayId: this.relayId }, 'relay lease unreadable, retrying');
      return false;
    }
  }

  /** Ends for good: no renewals, no release (the lease is someone else's). */
  fence(): void {
    this.keeper?.stopRenewing();
    this.epoch = undefined;
  }

  /** Gives the lease up on a clean stop, so a standby takes over without waiting out the TTL. */
  async release(): Promise<void> {
    this.epoch = undefined;
    await this.keeper?.release();
  }
}
