import { relayedEventOf, relayTopicFor, type ConsumerHandle, type EventBus, type ReceivedMessage } from '@lomo/bus';
import { streams } from '@lomo/contracts';
import type { GenerationService } from './generation-service';

export const GENERATION_CONSUMER_GROUP = 'generation';
/**
 * The relay's topics of job, account and task events (`lomo.events.generation`,
 * `lomo.events.account`, `lomo.events.task`: the person's decisions on cards are task events).
 */
export const GENERATION_TOPICS = [
  relayTopicFor(streams.generation('x')),
  relayTopicFor(streams.account('x')),
  relayTopicFor(streams.task('x')),
];

export interface GenerationWorkerOptions {
  partitions: number;
  maxAttempts: number;
}

/**
 * Feeds the generation service from the bus: a new order (GenerationRequested, appended by a media
 * tool in the executor) and a person's approval (QuoteApproved, or their decision on a card:
 * CheckpointResolved on the task) each advance their job; a new budget or new limits
 * (BudgetApproved, LimitsSet) advance the workspace's jobs waiting on money. All are at least
 * once; advancing a job twice changes nothing. Jobs whose events were missed (a consumer that was
 * down) are found by the service's own sweep of unfinished jobs, which reads the same decisions.
 */
export class GenerationWorker {
  private consumer: ConsumerHandle | undefined;

  constructor(
    private readonly bus: Pick<EventBus, 'subscribe' | 'ensureTopics'>,
    private readonly service: GenerationService,
    private readonly options: GenerationWorkerOptions,
  ) {}

  async start(): Promise<void> {
    await this.bus.ensureTopics(GENERATION_TOPICS.map((name) => ({ name, partitions: this.options.partitions })));
    this.consumer = await this.bus.subscribe({
      groupId: GENERATION_CONSUMER_GROUP,
      topics: GENERATION_TOPICS,
      fromBeginning: true,
      maxAttempts: this.options.maxAttempts,
      backoff: { initialDelayMs: 100, maxDelayMs: 5_000 },
      handler: (message) => this.handle(message),
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
  }

  async handle(message: ReceivedMessage): Promise<void> {
    const event = relayedEventOf(message);
    switch (event.type) {
      case 'GenerationRequested':
        await this.service.advance((event.data as { jobId: string }).jobId);
        return;
      case 'QuoteApproved': {
        const jobId = await this.service.jobOfQuote(
          event.metadata.workspaceId,
          (event.data as { quoteId: string }).quoteId,
        );
        if (jobId !== undefined) await this.service.advance(jobId);
        return;
      }
      case 'BudgetApproved':
      case 'LimitsSet':
        await this.service.advanceWaiting(event.metadata.workspaceId);
        return;
      case 'CheckpointResolved':
        // An agent's own resolution decides nothing (the task's fold ignores it); reading is harmless.
        await this.service.onCheckpointResolved(
          event.metadata.workspaceId,
          event.metadata.streamId.slice('task-'.length),
          (event.data as { checkpointId: string }).checkpointId,
        );
        return;
      default:
        return;
    }
  }
}
