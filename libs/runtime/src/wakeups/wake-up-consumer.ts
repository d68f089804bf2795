import type { ConsumerHandle, EventBus, MessageHandler, ReceivedMessage } from '@lomo/bus';
import { WAKE_UP_TOPIC, wakeUpMessage, type TestControl, type WakeUpMessage } from '@lomo/contracts';
import type { Logger } from '@lomo/observability';
import type { WakeRequest } from '../worker/task-worker';

export const EXECUTOR_WAKE_GROUP = 'lomo-executor';
/** One group per executor process: Kafka delivers each message once per group, so each process sees every cancel. */
export const cancelGroupOf = (workerId: string) => `lomo-executor-cancels.${workerId}`;

export interface WakeUpConsumerOptions {
  workerId: string;
  partitions: number;
  maxAttempts: number;
  /** Runs a handler inside the message's trace context (the platform's withMessageTraceContext). */
  traced?: (handler: MessageHandler) => MessageHandler;
  /** Drills only: the `lost_wakeups` fault (libs/platform/src/test-control/README.md). Absent: off. */
  testControl?: Pick<TestControl, 'fault'>;
}

export interface WakeTarget {
  wake(request: WakeRequest): Promise<void>;
  cancel(turnId: string, reason: string): boolean;
}

/**
 * Two subscriptions on the wake-up topic. Wakes are work: executors share them through one
 * consumer group (any instance may take a task; the turn lease settles who runs it), and the
 * handler only starts the work so a long turn never holds a partition. Cancels must reach the
 * one process holding the turn's lease, wherever it runs: each executor also subscribes with a
 * group of its own, starting at the end of the topic, and acts only on cancels for turns it holds.
 */
export class WakeUpConsumer {
  private readonly handles: ConsumerHandle[] = [];
  /** lost_wakeups: wake-ups per task seen while the fault is on (odd ones are dropped). */
  private readonly faultCounts = new Map<string, number>();

  constructor(
    private readonly bus: EventBus,
    private readonly target: WakeTarget,
    private readonly logger: Logger,
    private readonly options: WakeUpConsumerOptions,
  ) {}

  async start(): Promise<void> {
    await this.bus.ensureTopics([{ name: WAKE_UP_TOPIC, partitions: this.options.partitions }]);
    const traced = this.options.traced ?? ((h: MessageHandler) => h);
    const backoff = { initialDelayMs: 200, maxDelayMs: 5_000 };
    this.handles.push(
      await this.bus.subscribe({
        groupId: EXECUTOR_WAKE_GROUP,
        topics: [WAKE_UP_TOPIC],
        maxAttempts: this.options.maxAttempts,
        backoff,
        fromBeginning: true,
        handler: traced(async (message) => this.onWake(message)),
      }),
      await this.bus.subscribe({
        groupId: cancelGroupOf(this.options.workerId),
        topics: [WAKE_UP_TOPIC],
        maxAttempts: 1,
        backoff,
        // A cancel published before this process started concerns leases it cannot hold.
        fromBeginning: false,
        handler: traced(async (message) => this.onCancel(message)),
      }),
    );
  }

  async stop(): Promise<void> {
    await Promise.all(this.handles.splice(0).map((h) => h.stop()));
  }

  private async onWake(message: ReceivedMessage): Promise<void> {
    const parsed = this.parse(message);
    if (parsed?.kind !== 'wake') return;
    if (this.lostByFault(parsed.taskId, parsed.reason)) return;
    // Started, not awaited: duplicates fold into the run in progress, and the watchdog covers a crash.
    void this.target.wake({ taskId: parsed.taskId, reason: parsed.reason });
  }

  /**
   * The `lost_wakeups` drill fault: the 1st, 3rd, 5th... wake-up of each task that arrives while
   * it is on is acknowledged and dropped, as a lost message would be, so only a recovery path (the
   * watchdog's next scan, a later wake-up) can start the task's turn. Off: one read, nothing else.
   */
  private lostByFault(taskId: string, reason: string): boolean {
    if (this.options.testControl?.fault('lost_wakeups') !== true) return false;
    const seen = (this.faultCounts.get(taskId) ?? 0) + 1;
    this.faultCounts.set(taskId, seen);
    if (seen % 2 === 0) return false;
    this.logger.warn({ taskId, reason, fault: 'lost_wakeups' }, 'wake-up dropped by the lost_wakeups test fault');
    return true;
  }

  private async onCancel(message: ReceivedMessage): Promise<void> {
    const parsed = this.parse(message);
    if (parsed?.kind !== 'cancel') return;
    const held = this.target.cancel(parsed.turnId, parsed.reason);
    if (held)
      this.logger.info(
        { taskId: parsed.taskId, turnId: parsed.turnId, reason: parsed.reason, workerId: this.options.workerId },
        'cancel received; in-flight work of the turn aborted',
      );
  }

  private parse(message: ReceivedMessage): WakeUpMessage | undefined {
    const parsed = wakeUpMessage.safeParse(message.value);
    if (parsed.success) return parsed.data;
    // Retrying a malformed message cannot help; log it and move on.
    this.logger.warn(
      { topic: message.topic, partition: message.partition, offset: message.offset },
      'invalid wake-up message skipped',
    );
    return undefined;
  }
}
