import { traceHeaders } from '@lomo/observability';
import { WAKE_UP_TOPIC, wakeUpMessage, type WakeUpMessage } from '@lomo/contracts';
import type { EventBus } from '@lomo/bus';

/**
 * Publishes wake-ups directly on the bus (not through the store): duplicates are harmless because
 * the receiver re-reads the streams, and a lost one is found by the watchdog.
 */
export class WakeUpPublisher {
  private topicReady: Promise<void> | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly partitions: number,
  ) {}

  /** Creates the topic once per instance; the bus never auto-creates one. */
  ensureTopic(): Promise<void> {
    this.topicReady ??= this.bus.ensureTopics([{ name: WAKE_UP_TOPIC, partitions: this.partitions }]).catch((e) => {
      this.topicReady = undefined;
      throw e;
    });
    return this.topicReady;
  }

  /** Keyed by task id, so a task's wake-ups and cancels stay in order. */
  async wake(workspaceId: string, taskId: string): Promise<WakeUpMessage> {
    const message = wakeUpMessage.parse({ kind: 'wake', workspaceId, taskId, reason: 'message' });
    await this.ensureTopic();
    await this.bus.publish(WAKE_UP_TOPIC, [{ key: taskId, value: message, headers: traceHeaders() }]);
    return message;
  }
}
