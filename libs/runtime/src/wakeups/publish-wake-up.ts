import { WAKE_UP_TOPIC, wakeUpMessage, type WakeUpMessage } from '@lomo/contracts';
import type { EventBus } from '@lomo/bus';
import { traceHeaders } from '@lomo/observability';

/** Publishes a wake-up or cancel, keyed by task so one task's messages stay in order. */
export async function publishWakeUp(bus: Pick<EventBus, 'publish'>, message: WakeUpMessage): Promise<void> {
  const value = wakeUpMessage.parse(message);
  // The receiver continues this trace (withMessageTraceContext reads the headers).
  await bus.publish(WAKE_UP_TOPIC, [{ key: value.taskId, value, headers: traceHeaders() }]);
}
