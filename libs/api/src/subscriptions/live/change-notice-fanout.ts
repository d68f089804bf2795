import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { z } from 'zod';
import { EVENT_BUS, type ConsumerHandle, type EventBus } from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { LOGGER, type Logger } from '@lomo/observability';
import { CHANGES_TOPIC, type ChangeNotice } from '@lomo/read-models';

export type NoticeListener = (notice: ChangeNotice) => void;

const noticeSchema = z.object({
  projection: z.string(),
  collection: z.string(),
  documentId: z.string(),
  workspaceId: z.string(),
  streams: z.record(z.string(), z.number()),
});

const keyOf = (projection: string, workspaceId: string) => `${projection}\u0000${workspaceId}`;

/** How long start waits for the bus to hand this instance every partition of the topic. */
const ASSIGNMENT_WAIT_MS = 10_000;

/**
 * Every read-model change notice, to the subscriptions of this API instance. Each instance
 * consumes `lomo.changes` in a consumer group of its own (`api-<uuid>`, from the end), so every
 * instance sees every notice and can serve any client; subscriptions register by projection and
 * workspace, so a notice reaches only its own tenant's listeners. Listeners are called
 * synchronously and must only take note (read later): the bus handler never waits on a client.
 */
@Injectable()
export class ChangeNoticeFanout implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly groupId = `api-${randomUUID()}`;
  private readonly listeners = new Map<string, Set<NoticeListener>>();
  private readonly logger: Logger;
  private consumer: ConsumerHandle | undefined;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(LOMO_CONFIG) private readonly config: LomoConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'change-notice-fanout', groupId: this.groupId });
  }

  async onApplicationBootstrap(): Promise<void> {
    const partitions = this.config.LOMO_BUS_PARTITIONS;
    await this.bus.ensureTopics([{ name: CHANGES_TOPIC, partitions }]);
    const consumer = await this.bus.subscribe({
      groupId: this.groupId,
      topics: [CHANGES_TOPIC],
      handler: (message) => Promise.resolve(this.dispatch(message.value)),
      // Dispatch only takes note; nothing here is worth a retry.
      maxAttempts: 1,
      backoff: { initialDelayMs: 10, maxDelayMs: 10 },
    });
    this.consumer = consumer;
    // "From the end" is fixed when a partition is taken: wait so no notice slips by at start.
    const deadline = Date.now() + ASSIGNMENT_WAIT_MS;
    while (consumer.assignment().length < partitions && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const assigned = consumer.assignment().length;
    if (assigned < partitions) this.logger.warn({ assigned, partitions }, 'not every partition assigned yet');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
  }

  /** Calls `listener` with every notice of `projection` in `workspaceId`; returns the unsubscribe. */
  listen(projection: string, workspaceId: string, listener: NoticeListener): () => void {
    const key = keyOf(projection, workspaceId);
    const set = this.listeners.get(key) ?? new Set<NoticeListener>();
    set.add(listener);
    this.listeners.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
    };
  }

  dispatch(value: unknown): void {
    const parsed = noticeSchema.safeParse(value);
    if (!parsed.success) {
      this.logger.warn({ issues: parsed.error.issues.length }, 'malformed change notice ignored');
      return;
    }
    const notice = parsed.data;
    const set = this.listeners.get(keyOf(notice.projection, notice.workspaceId));
    this.logger.debug(
      {
        projection: notice.projection,
        workspaceId: notice.workspaceId,
        documentId: notice.documentId,
        streams: notice.streams,
        listeners: set?.size ?? 0,
      },
      'change notice received',
    );
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        listener(notice);
      } catch (error) {
        this.logger.error(
          { error: error instanceof Error ? error.message : String(error), documentId: notice.documentId },
          'change-notice listener failed',
        );
      }
    }
  }
}
