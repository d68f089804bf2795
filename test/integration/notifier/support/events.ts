import { randomUUID } from 'node:crypto';
import { streams, type NewEvent, type WriteMetadata } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';

const metadata = (workspaceId: string): WriteMetadata => ({
  correlationId: 'notifier-test',
  causationId: null,
  workspaceId,
  actor: { kind: 'system', component: 'notifier-test' },
});

export const checklistItemChanged = (workspaceId: string, n: number): NewEvent => ({
  eventId: randomUUID(),
  type: 'ChecklistItemChanged',
  data: { itemId: `item-${n}`, status: 'in_progress' },
  metadata: metadata(workspaceId),
});

export const userMessageReceived = (workspaceId: string, userId: string, text: string): NewEvent => ({
  eventId: randomUUID(),
  type: 'UserMessageReceived',
  data: { messageId: randomUUID(), userId, text, language: 'en', channel: 'api' },
  metadata: { ...metadata(workspaceId), actor: { kind: 'user', userId } },
});

/** A task stream of `workspaceId`, appended one event at a time. */
export class TaskStream {
  readonly id = streams.task(randomUUID());
  private next = 0;

  constructor(
    private readonly store: EventStore,
    private readonly workspaceId: string,
  ) {}

  /** Appends one event; returns its revision. */
  async append(): Promise<number> {
    const n = this.next;
    await this.store.append(this.id, [checklistItemChanged(this.workspaceId, n)], n === 0 ? 'no_stream' : n - 1);
    this.next += 1;
    return n;
  }
}
