import { Inject, Injectable } from '@nestjs/common';
import { streams } from '@lomo/contracts';
import { LOGGER, type Logger } from '@lomo/observability';
import { decodeRevisions, tasksProjection } from '@lomo/read-models';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import type { Caller } from '@lomo/auth';
import { mapTask } from '../../graphql/mappers/map-task';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import type { TaskUpdate } from '../graphql/live.types';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import { ChangeNoticeFanout } from './change-notice-fanout';
import { CoalescingReads } from './coalescing-reads';
import { LiveOutbox } from './live-outbox';
import { isNewer, tokenOfRevisions, type Revisions } from './revisions';

/** `taskUpdated(taskId)`: the task's current state, then each newer state the read model applies. */
@Injectable()
export class TaskUpdates {
  private readonly logger: Logger;

  constructor(
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
    @Inject(ChangeNoticeFanout) private readonly fanout: ChangeNoticeFanout,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'task-updates' });
  }

  async open(caller: Caller, taskId: string, onSlowConsumer: (error: Error) => void): Promise<LiveOutbox<TaskUpdate>> {
    const taskStream = streams.task(taskId);
    // From the store, so a task routed a moment ago is found before its document exists; the
    // same NOT_FOUND for an unknown id and for another workspace's.
    await this.ownership.require(taskStream, caller, 'task', taskId);
    const outbox = new LiveOutbox<TaskUpdate>(this.settings.outboxCapacity, onSlowConsumer);
    let sent: Revisions | undefined;
    const sendLatest = async () => {
      const document = await this.readModels.getTask(caller.workspaceId, taskId);
      if (document === undefined) return;
      const revisions = decodeRevisions(document._streams);
      if (!isNewer(sent, revisions)) return;
      const consistencyToken = tokenOfRevisions(revisions, taskStream, sent);
      sent = revisions;
      outbox.push({ task: mapTask(document), consistencyToken }, 'task');
    };
    // One document, one id: the set of waiting reads never outgrows 1.
    const reads = new CoalescingReads(
      sendLatest,
      outbox.signal,
      1,
      (error) => this.fail(outbox, caller, taskId, error),
      () => undefined,
      (error, attempt) =>
        this.logger.warn(
          {
            workspaceId: caller.workspaceId,
            taskId,
            attempt,
            error: error instanceof Error ? error.message : String(error),
          },
          'task subscription read failed; trying again',
        ),
    );
    // Listening before the first read: a change applied while it runs is read again afterwards.
    const unlisten = this.fanout.listen(tasksProjection.name, caller.workspaceId, (notice) => {
      if (notice.documentId === taskId) reads.mark(taskId);
    });
    outbox.signal.addEventListener('abort', unlisten, { once: true });
    try {
      await sendLatest();
    } catch (error) {
      void outbox.return();
      throw error;
    }
    reads.start();
    return outbox;
  }

  private fail(outbox: LiveOutbox<TaskUpdate>, caller: Caller, taskId: string, error: unknown): void {
    this.logger.error(
      { taskId, workspaceId: caller.workspaceId, error: error instanceof Error ? error.message : String(error) },
      'task subscription read failed',
    );
    outbox.fail(error);
  }
}
