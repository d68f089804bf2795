import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@lomo/auth';
import { notFound } from '@lomo/contracts';
import { LOGGER, type Logger } from '@lomo/observability';
import { ARTIFACT_NOTICE_PROJECTION, type ArtifactView } from '@lomo/workspace';
import { mapArtifact } from '../../graphql/mappers/map-artifact';
import type { ArtifactUpdate } from '../../graphql/types/artifact.types';
import { ApiWorkspace } from '../../workspace/api-workspace';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import { ChangeNoticeFanout } from './change-notice-fanout';
import { CoalescingReads } from './coalescing-reads';
import { LiveOutbox } from './live-outbox';

/** What a client sees change: a new version, a deletion asked for or done, a new reference. */
const stateOf = (view: ArtifactView) =>
  JSON.stringify([view.version, view.deleted, view.deletionRequested?.requestId ?? null, view.taskIds]);

/**
 * `artifactChanged(id)`: the artefact's current state, then each newer one. Fed by the workspace
 * read model's change notices (projection ARTIFACT_NOTICE_PROJECTION, documentId = artefact id)
 * through the same fan-out as the other subscriptions; a notice only marks the artefact for a
 * re-read, so notices that coalesce or repeat cost one read and send nothing twice.
 */
@Injectable()
export class ArtifactUpdates {
  private readonly logger: Logger;

  constructor(
    @Inject(ApiWorkspace) private readonly workspace: ApiWorkspace,
    @Inject(ChangeNoticeFanout) private readonly fanout: ChangeNoticeFanout,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'artifact-updates' });
  }

  async open(
    caller: Caller,
    artifactId: string,
    onSlowConsumer: (error: Error) => void,
  ): Promise<LiveOutbox<ArtifactUpdate>> {
    const { readModel } = this.workspace.ports();
    // The same NOT_FOUND for an unknown id and for another workspace's: reads are by workspace.
    const first = await readModel.artifact(caller.workspaceId, artifactId);
    if (first === undefined) throw notFound('artifact', artifactId);
    const outbox = new LiveOutbox<ArtifactUpdate>(this.settings.outboxCapacity, onSlowConsumer);
    let sent: string | undefined;
    const send = (view: ArtifactView | undefined) => {
      if (view === undefined) return;
      const state = stateOf(view);
      if (state === sent) return;
      sent = state;
      outbox.push({ artifact: mapArtifact(view) }, 'artifact');
    };
    const sendLatest = async () => send(await readModel.artifact(caller.workspaceId, artifactId));
    const reads = new CoalescingReads(
      sendLatest,
      outbox.signal,
      1,
      (error) => {
        this.logger.error(
          {
            artifactId,
            workspaceId: caller.workspaceId,
            error: error instanceof Error ? error.message : String(error),
          },
          'artifact subscription read failed',
        );
        outbox.fail(error);
      },
      () => undefined,
      (error, attempt) =>
        this.logger.warn(
          { artifactId, attempt, error: error instanceof Error ? error.message : String(error) },
          'artifact subscription read failed; trying again',
        ),
    );
    // Listening before the first payload: a change applied meanwhile is read again afterwards.
    const unlisten = this.fanout.listen(ARTIFACT_NOTICE_PROJECTION, caller.workspaceId, (notice) => {
      if (notice.documentId === artifactId) reads.mark(artifactId);
    });
    outbox.signal.addEventListener('abort', unlisten, { once: true });
    send(first);
    reads.start();
    return outbox;
  }
}
