import { canSee, visibleStreamPrefixes, type Caller } from '@lomo/auth';
import { streams, type EventEnvelope } from '@lomo/contracts';
import { mayShow } from '../access/operator-access';
import type { InspectionSources } from './inspection-sources';
import type { TaskRecord } from './task-record';

const PAGE = 500;

const decides = (messageId: string) => (e: EventEnvelope) =>
  e.type === 'RoutingDecided' && (e.data as { messageId: string }).messageId === messageId;

/**
 * The routing decision of the message that created the task, on its sender's main line. The
 * sender is named by the origin's inbox delivery (or the creating actor); older deliveries did
 * not keep it, and then the workspace's main lines are searched for the decision. A main line is
 * private: a person sees only the decisions on their own.
 */
export async function originRoutingOf(
  sources: InspectionSources,
  caller: Caller,
  record: TaskRecord,
): Promise<EventEnvelope | undefined> {
  if (record.state.status === 'none') return undefined;
  const origin = record.state.originMessageId;
  const created = record.taskEvents.find((e) => e.type === 'TaskCreated');
  const sender =
    record.inbox.get(origin)?.from ?? (created?.metadata.actor.kind === 'user' ? created.metadata.actor.userId : null);
  if (sender !== null) {
    const mainLine = streams.main(record.workspaceId, sender);
    // Another person's main line is private: nothing of it is shown, nor searched for.
    if (canSee(caller, { streamId: mainLine, workspaceId: record.workspaceId }) === 'hidden') return undefined;
    const found = (await sources.events.readStream(mainLine)).find(decides(origin));
    if (found !== undefined) return mayShow(caller, found) ? found : undefined;
  }
  const { streamPrefixes } = visibleStreamPrefixes(caller, record.workspaceId, ['main']);
  if (streamPrefixes.length === 0) return undefined;
  let from: string | 'start' = 'start';
  for (;;) {
    const page = await sources.events.readAll({
      fromPosition: from,
      filter: { streamPrefixes, eventTypes: ['RoutingDecided'] },
      maxCount: PAGE,
    });
    const found = page.find(
      (e) => decides(origin)(e) && e.metadata.workspaceId === record.workspaceId && mayShow(caller, e),
    );
    if (found !== undefined) return found;
    if (page.length < PAGE) return undefined;
    from = page[page.length - 1].metadata.globalPosition;
  }
}
