import { WAKE_UP_TOPIC } from '@lomo/contracts';
import type { ConsumerHandle, EventBus, ReceivedMessage } from '../event-bus.port';

/**
 * Records every message on the wake-up topic from its beginning, for tests that check what woke
 * (or did not wake) a worker. `stop()` ends the subscription.
 */
export async function subscribeWakeUps(
  bus: EventBus,
  groupId = 'wake-up-probe',
): Promise<{ messages: ReceivedMessage[]; stop: ConsumerHandle['stop'] }> {
  const messages: ReceivedMessage[] = [];
  const handle = await bus.subscribe({
    groupId,
    topics: [WAKE_UP_TOPIC],
    fromBeginning: true,
    maxAttempts: 1,
    backoff: { initialDelayMs: 1, maxDelayMs: 1 },
    isRetriable: () => false,
    handler: async (message) => {
      messages.push(message);
    },
  });
  return { messages, stop: () => handle.stop() };
}
