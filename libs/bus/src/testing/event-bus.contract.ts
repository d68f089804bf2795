import { consumerLifecycleContract } from './contract/consumer-lifecycle.contract';
import { deliveryContract } from './contract/delivery.contract';
import {
  defaultContractTiming,
  type ContractContext,
  type EventBusContractTiming,
  type EventBusHarness,
  type EventBusHarnessFactory,
} from './contract/event-bus-harness';
import { redriveContract } from './contract/redrive.contract';
import { relayedMessageContract } from './contract/relayed-message.contract';
import { topicsAndMessagesContract } from './contract/topics-and-messages.contract';

export type { EventBusContractTiming, EventBusHarness, EventBusHarnessFactory } from './contract/event-bus-harness';

/**
 * The one test suite every EventBus adapter passes. Call it at the top level of a spec file:
 * each test gets a fresh harness from `factory` and disposes of it afterwards. Waits are
 * condition-based; pass slower `timing` for a real broker.
 */
export function describeEventBusContract(
  name: string,
  factory: EventBusHarnessFactory,
  options: { timing?: Partial<EventBusContractTiming> } = {},
): void {
  const timing: EventBusContractTiming = { ...defaultContractTiming, ...options.timing };

  describe(`EventBus contract: ${name}`, () => {
    let current: ContractContext | undefined;
    let cleanups: Array<() => Promise<void>> = [];
    const context = (): ContractContext => {
      if (!current) throw new Error('the contract context exists only inside a test');
      return current;
    };

    beforeEach(async () => {
      const harness: EventBusHarness = await factory();
      cleanups = [];
      current = { harness, timing, onCleanup: (fn) => cleanups.push(fn) };
    }, timing.testTimeoutMs);

    afterEach(async () => {
      const ctx = current;
      current = undefined;
      const failures: unknown[] = [];
      for (const fn of cleanups.reverse()) await fn().catch((error: unknown) => failures.push(error));
      await ctx?.harness.dispose();
      // A cleanup that fails (a consumer that cannot stop) is a finding, not noise.
      if (failures.length > 0) throw failures[0];
    }, timing.testTimeoutMs);

    jest.setTimeout(timing.testTimeoutMs);
    topicsAndMessagesContract(context);
    consumerLifecycleContract(context);
    deliveryContract(context, 'direct publish');
    deliveryContract(context, 'relayed events');
    relayedMessageContract(context);
    redriveContract(context);
  });
}
