import type { Caller } from '@lomo/auth';
import { isValidStreamId, streams, type EventEnvelope } from '@lomo/contracts';
import { PromptArchive } from '@lomo/runtime';
import { UnknownTargetError } from '../errors';
import { assertMayReadWorkspace, mayShow } from '../access/operator-access';
import { purged, PURGE_REASONS } from './forgotten-content';
import { generationJobsOf } from './generation-jobs';
import type { InspectionSources } from './inspection-sources';
import type { InspectedCheckpoint, InspectedContinuation, InspectedTurn, TaskInspection } from './inspection.types';
import { compareEventOrder } from '../positions';
import { originRoutingOf } from './routing-decision';
import { readTaskRecord, type TaskRecord } from './task-record';
import { timelineEntry } from './timeline';
import { inspectTurnOf } from './turn-view';

export interface InspectOptions {
  /** Load each step's archived prompt from the BlobStore (`--prompts`). */
  prompts?: boolean;
}

/**
 * Why a task did what it did, from the log alone: its routing, inbox, turns and steps (prompts
 * on request), tool ledger, paid jobs and money, cards and continuation decisions, in one
 * timeline. Forgotten content shows as purged, never its text.
 */
export async function inspectTask(
  sources: InspectionSources,
  caller: Caller,
  taskId: string,
  options: InspectOptions = {},
): Promise<TaskInspection> {
  const record = await readTaskRecord(sources, caller, taskId);
  const archive = options.prompts === true ? new PromptArchive(sources.blobs) : undefined;
  const turns: InspectedTurn[] = [];
  for (const { turnId, events } of record.turns) turns.push(await inspectTurnOf(record, turnId, events, archive));
  const routingEvent = await originRoutingOf(sources, caller, record);
  const { jobs, events: jobEvents } = await generationJobsOf(sources, caller, record);
  const { state } = record;

  const all = dedupe([
    ...record.taskEvents,
    ...record.turns.flatMap((t) => t.events),
    ...(routingEvent !== undefined ? [routingEvent] : []),
    ...jobEvents,
  ]).sort(compareEventOrder);

  const routing = routingEvent?.data as
    { messageId: string; outcome: string; method: string; candidates: unknown } | undefined;
  return {
    taskId,
    workspaceId: record.workspaceId,
    goal:
      state.status === 'none'
        ? ''
        : record.forgotten.isMessageForgotten(state.originMessageId)
          ? purged(PURGE_REASONS.forgotten)
          : state.goal,
    status: state.status,
    routing:
      routing === undefined || routingEvent === undefined
        ? null
        : {
            messageId: routing.messageId,
            outcome: routing.outcome,
            method: routing.method,
            candidates: routing.candidates,
            at: routingEvent.metadata.occurredAt,
          },
    inbox: [...record.inbox.values()],
    turns,
    steps: turns.flatMap((t) => t.steps),
    generationJobs: jobs,
    checkpoints: checkpointsOf(record),
    continuations: continuationsOf(record),
    timeline: all.map(timelineEntry),
  };
}

/** One turn of a task, with the same rules (its task is read for the inbox and the forgettings). */
export async function inspectTurn(
  sources: InspectionSources,
  caller: Caller,
  turnId: string,
  options: InspectOptions = {},
): Promise<InspectedTurn> {
  const streamId = streams.turn(turnId);
  if (!isValidStreamId(streamId)) throw new UnknownTargetError('turn', turnId);
  const head = await sources.events.readStream(streamId, { maxCount: 1 });
  if (head.length === 0) throw new UnknownTargetError('turn', turnId);
  assertMayReadWorkspace(caller, head[0].metadata.workspaceId);
  const taskId = head[0].type === 'TurnStarted' ? (head[0].data as { taskId: string }).taskId : undefined;
  if (taskId === undefined) throw new UnknownTargetError('turn', turnId);
  const record = await readTaskRecord(sources, caller, taskId);
  const archive = options.prompts === true ? new PromptArchive(sources.blobs) : undefined;
  const turn = record.turns.find((t) => t.turnId === turnId);
  // A turn its task never opened (a crash between the two writes) is still shown, alone.
  const events = turn?.events ?? (await sources.events.readStream(streamId)).filter((e) => mayShow(caller, e));
  return inspectTurnOf(record, turnId, events, archive);
}

function checkpointsOf(record: TaskRecord): InspectedCheckpoint[] {
  const checkpoints = new Map<string, InspectedCheckpoint>();
  for (const e of record.taskEvents) {
    const d = e.data as Record<string, unknown>;
    if (e.type === 'CheckpointOpened' && !checkpoints.has(String(d.checkpointId)))
      checkpoints.set(String(d.checkpointId), {
        checkpointId: String(d.checkpointId),
        kind: String(d.kind),
        openedAt: e.metadata.occurredAt,
        resolution: null,
        resolvedAt: null,
      });
    if (e.type === 'CheckpointResolved') {
      const checkpoint = checkpoints.get(String(d.checkpointId));
      if (checkpoint === undefined || checkpoint.resolvedAt !== null) continue;
      checkpoint.resolution = {
        decision: d.decision,
        resolvedBy: d.resolvedBy,
        ...(d.choice !== undefined ? { choice: d.choice } : {}),
        ...(d.callId !== undefined ? { callId: d.callId } : {}),
        ...(d.answer !== undefined ? { answer: d.answer } : {}),
      };
      checkpoint.resolvedAt = e.metadata.occurredAt;
    }
  }
  return [...checkpoints.values()];
}

function continuationsOf(record: TaskRecord): InspectedContinuation[] {
  return record.taskEvents
    .filter((e) => e.type === 'ContinuationDecided')
    .map((e) => {
      const d = e.data as { turnId: string; decision: string; reason: string };
      return { at: e.metadata.occurredAt, decision: d.decision, reason: d.reason, turnId: d.turnId };
    });
}

function dedupe(events: readonly EventEnvelope[]): EventEnvelope[] {
  const seen = new Set<string>();
  return events.filter((e) => !seen.has(e.metadata.eventId) && (seen.add(e.metadata.eventId), true));
}
