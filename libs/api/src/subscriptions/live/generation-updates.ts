import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@lomo/auth';
import { streams } from '@lomo/contracts';
import {
  GENERATION_JOBS,
  GENERATION_READ_MODEL,
  type GenerationJobRecord,
  type GenerationReadModel,
} from '@lomo/generation';
import { LOGGER, type Logger } from '@lomo/observability';
import { mapGenerationJob } from '../../graphql/mappers/map-generation';
import type { GenerationProgressUpdate } from '../../graphql/types/generation.types';
import { StreamOwnership } from '../../tenancy/stream-ownership';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import { ChangeNoticeFanout } from './change-notice-fanout';
import { CoalescingReads } from './coalescing-reads';
import { LiveOutbox } from './live-outbox';

/** Marked when more jobs changed than are worth reading one by one: the task's jobs are read again. */
const ALL = '*';
const MAX_MARKED = 64;

/**
 * `generationProgress(taskId)`: the task's jobs as they are, then each job again whenever its
 * document changes. Fed by the generation_jobs change notices (documentId = job id) of the
 * caller's workspace; a notice only marks the job for a re-read, and a job is sent only when its
 * stream revision is newer than the one sent, so repeated notices send nothing twice. The notice
 * names no task, so a job of another task of the workspace costs one read and sends nothing.
 */
@Injectable()
export class GenerationUpdates {
  private readonly logger: Logger;

  constructor(
    @Inject(GENERATION_READ_MODEL) private readonly readModel: GenerationReadModel,
    @Inject(StreamOwnership) private readonly ownership: StreamOwnership,
    @Inject(ChangeNoticeFanout) private readonly fanout: ChangeNoticeFanout,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'generation-updates' });
  }

  async open(
    caller: Caller,
    taskId: string,
    onSlowConsumer: (error: Error) => void,
  ): Promise<LiveOutbox<GenerationProgressUpdate>> {
    // The same NOT_FOUND for an unknown task and for another workspace's.
    await this.ownership.require(streams.task(taskId), caller, 'task', taskId);
    const outbox = new LiveOutbox<GenerationProgressUpdate>(this.settings.outboxCapacity, onSlowConsumer);
    const sent = new Map<string, number>();
    const send = (view: GenerationJobRecord | undefined) => {
      if (view === undefined || view.taskId !== taskId) return;
      if ((sent.get(view.jobId) ?? -1) >= view.revision) return;
      sent.set(view.jobId, view.revision);
      // Keyed by job: a newer state of a job still waiting in the outbox replaces the older one.
      outbox.push({ job: mapGenerationJob(view) }, view.jobId);
    };
    const sendAll = async () => {
      for (const view of await this.readModel.jobsOfTask(caller.workspaceId, taskId)) send(view);
    };
    const read = async (id: string) =>
      id === ALL ? sendAll() : send(await this.readModel.job(caller.workspaceId, id));
    const reads = new CoalescingReads(
      read,
      outbox.signal,
      MAX_MARKED,
      (error) => {
        this.logger.error(
          { taskId, workspaceId: caller.workspaceId, error: error instanceof Error ? error.message : String(error) },
          'generation subscription read failed',
        );
        outbox.fail(error);
      },
      () => reads.mark(ALL),
      (error, attempt) =>
        this.logger.warn(
          { taskId, attempt, error: error instanceof Error ? error.message : String(error) },
          'generation subscription read failed; trying again',
        ),
    );
    // Listening before the first read: a change applied while it runs is read again afterwards.
    const unlisten = this.fanout.listen(GENERATION_JOBS, caller.workspaceId, (notice) => reads.mark(notice.documentId));
    outbox.signal.addEventListener('abort', unlisten, { once: true });
    try {
      await sendAll();
    } catch (error) {
      void outbox.return();
      throw error;
    }
    reads.start();
    return outbox;
  }
}
