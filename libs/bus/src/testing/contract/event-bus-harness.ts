import type { BackoffOptions } from '@lomo/resilience';
import type { EventBus } from '../../event-bus.port';

/** What the shared bus contract suite needs from one adapter. */
export interface EventBusHarness {
  /** A bus on fresh or shared storage (a broker shared by tests is fine: see uniqueName). */
  readonly bus: EventBus;
  /**
   * Another bus on the same log or broker: a second process while `bus` is open, a restarted
   * one after `bus.close()`. The harness closes it in dispose().
   */
  openAnother(): Promise<EventBus>;
  /** A topic or group name no other test (or earlier run on the same broker) uses. */
  uniqueName(base: string): string;
  /** Closes every bus the harness opened (close() must be idempotent) and removes the storage. */
  dispose(): Promise<void>;
}

export type EventBusHarnessFactory = () => Promise<EventBusHarness>;

/** Knobs for slower adapters: a real broker's rebalance takes seconds. */
export interface EventBusContractTiming {
  /** Limit of each condition-based wait. */
  waitTimeoutMs: number;
  /** Jest timeout of each test; several waits may run in one test. */
  testTimeoutMs: number;
  /** Handlers' retry backoff: small, so retry tests stay quick. */
  backoff: BackoffOptions;
  /** Partitions of every topic the suite creates. */
  partitions: number;
}

export const defaultContractTiming: EventBusContractTiming = {
  waitTimeoutMs: 15_000,
  testTimeoutMs: 60_000,
  backoff: { initialDelayMs: 5, maxDelayMs: 25 },
  partitions: 4,
};

export interface ContractContext {
  readonly harness: EventBusHarness;
  readonly timing: EventBusContractTiming;
  /** Runs after the test, last registered first, before the harness is disposed. */
  onCleanup(fn: () => Promise<void>): void;
}
