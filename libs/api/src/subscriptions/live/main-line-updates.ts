import { Inject, Injectable } from '@nestjs/common';
import { streams } from '@lomo/contracts';
import { LOGGER, type Logger } from '@lomo/observability';
import { decodeRevisions, mainLineProjection, type MainLineDocument } from '@lomo/read-models';
import { API_READ_MODELS, type ApiReadModels } from '../../api-di-tokens';
import type { Caller } from '@lomo/auth';
import { encodeConsistencyToken } from '../../consistency/consistency-token';
import { mapMainLineItem } from '../../graphql/mappers/map-main-line';
import type { MainLineUpdate } from '../graphql/live.types';
import { slowConsumer } from '../live-errors';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import { ChangeNoticeFanout } from './change-notice-fanout';
import { CoalescingReads } from './coalescing-reads';
import { LiveOutbox } from './live-outbox';
import { RecentRevisions } from './recent-revisions';

/**
 * `mainlineUpdated`: the caller's latest main-line items, then every item that changes (a new
 * message, its routing, a reply, a card, a task's checkpoint cards). An item's states are ordered
 * by the stream its content comes from: the person's main stream, or for a task's checkpoint
 * cards that task's stream (the main stream only names their owner, once).
 */
@Injectable()
export class MainLineUpdates {
  private readonly logger: Logger;

  constructor(
    @Inject(API_READ_MODELS) private readonly readModels: ApiReadModels,
    @Inject(ChangeNoticeFanout) private readonly fanout: ChangeNoticeFanout,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'main-line-updates' });
  }

  async open(
    caller: Caller,
    first: number,
    onSlowConsumer: (error: Error) => void,
  ): Promise<LiveOutbox<MainLineUpdate>> {
    const mainStream = streams.main(caller.workspaceId, caller.userId);
    const outbox = new LiveOutbox<MainLineUpdate>(this.settings.outboxCapacity, onSlowConsumer);
    const sent = new RecentRevisions(this.settings.trackedItems);
    const revisionOf = (document: MainLineDocument) => {
      const streamId = sourceOf(document, mainStream);
      return { streamId, revision: decodeRevisions(document._streams)[streamId] ?? -1 };
    };

    const sendItem = async (id: string) => {
      const document = await this.readModels.getMessage(caller.workspaceId, id);
      // kind null: a task's checkpoints item before its first card, nothing to show yet.
      if (document === undefined || document.userId !== caller.userId || document.kind === null) return;
      const { streamId, revision } = revisionOf(document);
      if (!sent.advance(id, revision)) {
        this.logger.debug(
          { workspaceId: caller.workspaceId, messageId: id, revision },
          'main-line item not newer than sent',
        );
        return;
      }
      const consistencyToken = encodeConsistencyToken([{ streamId, revision }]);
      outbox.push({ snapshot: false, items: [mapMainLineItem(document)], consistencyToken }, id);
    };
    const reads = new CoalescingReads(
      sendItem,
      outbox.signal,
      this.settings.outboxCapacity,
      (error) => {
        this.logger.error(
          { workspaceId: caller.workspaceId, error: error instanceof Error ? error.message : String(error) },
          'main-line subscription read failed',
        );
        outbox.fail(error);
      },
      () => {
        const error = slowConsumer({ waitingItems: this.settings.outboxCapacity });
        outbox.fail(error);
        onSlowConsumer(error);
      },
      (error, attempt) =>
        this.logger.warn(
          { workspaceId: caller.workspaceId, attempt, error: error instanceof Error ? error.message : String(error) },
          'main-line subscription read failed; trying again',
        ),
    );
    // Only the caller's own main stream: other members of the workspace have lines of their own.
    // A task's checkpoints item names it too (its owner came from there), so it is heard here.
    const unlisten = this.fanout.listen(mainLineProjection.name, caller.workspaceId, (notice) => {
      if (notice.streams[mainStream] !== undefined) reads.mark(notice.documentId);
    });
    outbox.signal.addEventListener('abort', unlisten, { once: true });
    try {
      const page = await this.readModels.mainLine(caller.workspaceId, caller.userId, { first });
      const latest = new Map<string, number>();
      for (const document of page.items) {
        const { streamId, revision } = revisionOf(document);
        sent.advance(document._id, revision);
        if (revision > (latest.get(streamId) ?? -1)) latest.set(streamId, revision);
      }
      outbox.push(
        {
          snapshot: true,
          items: page.items.map(mapMainLineItem),
          consistencyToken: encodeConsistencyToken(snapshotPairs(latest, mainStream)),
        },
        'snapshot',
      );
    } catch (error) {
      void outbox.return();
      throw error;
    }
    reads.start();
    return outbox;
  }
}

/** The stream an item's content comes from: its task's for a task's checkpoint cards. */
function sourceOf(document: MainLineDocument, mainStream: string): string {
  return document.kind === 'checkpoints' && document.checkpoints !== null
    ? streams.task(document.checkpoints.taskId)
    : mainStream;
}

/** A token holds at most 32 pairs: the main stream first, then the newest items' task streams. */
const MAX_TOKEN_PAIRS = 32;

function snapshotPairs(latest: ReadonlyMap<string, number>, mainStream: string) {
  const pairs = [...latest].map(([streamId, revision]) => ({ streamId, revision }));
  pairs.sort((a, b) => Number(b.streamId === mainStream) - Number(a.streamId === mainStream));
  return pairs.slice(0, MAX_TOKEN_PAIRS);
}
