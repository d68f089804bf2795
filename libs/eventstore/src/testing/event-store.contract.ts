import type { EventStoreHarness, EventStoreHarnessFactory } from './event-store-harness';
import { appendContract } from './contract/append.contract';
import { concurrencyContract } from './contract/concurrency.contract';
import { idempotencyContract } from './contract/idempotency.contract';
import { invalidInputContract } from './contract/invalid-input.contract';
import { readContract } from './contract/read.contract';
import { subscriptionContract } from './contract/subscription.contract';
import { upcastingContract } from './contract/upcasting.contract';

export type { EventStoreHarness, EventStoreHarnessFactory, RawStoredEvent } from './event-store-harness';

export interface ContractOptions {
  /** The adapter can write a raw old-version event (upcasting tests). */
  rawInsert: boolean;
  /**
   * Event ids are unique across the whole store. SQLite enforces it; EventStoreDB checks ids only
   * within a stream, so its run declares false and the cross-stream test is not registered.
   */
  uniqueIdsAcrossStreams?: boolean;
}

/**
 * The one behavioural contract of the EventStore port. Every adapter (SQLite here, EventStoreDB
 * where it can run) calls this with a factory that returns a store on fresh storage.
 */
export function describeEventStoreContract(
  name: string,
  factory: EventStoreHarnessFactory,
  options: ContractOptions = { rawInsert: false },
): void {
  describe(`EventStore contract: ${name}`, () => {
    let current: EventStoreHarness | undefined;
    const harness = (): EventStoreHarness => {
      if (current === undefined) throw new Error('The contract harness is used outside a test');
      return current;
    };

    beforeEach(async () => {
      current = await factory();
    });
    afterEach(async () => {
      await current?.dispose();
      current = undefined;
    });

    appendContract(harness);
    idempotencyContract(harness, { uniqueIdsAcrossStreams: options.uniqueIdsAcrossStreams ?? true });
    invalidInputContract(harness);
    readContract(harness);
    // Registered only where the adapter can write a raw old event (declared up front, because
    // which tests exist must be known before any harness is built).
    if (options.rawInsert) upcastingContract(harness);
    subscriptionContract(harness);
    concurrencyContract(harness);
  });
}
