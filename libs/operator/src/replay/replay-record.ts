import { isValidStreamId, streams, type EventEnvelope } from '@lomo/contracts';
import type { CommittedStep, TurnState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { UnknownTargetError } from '../errors';
import { ForgottenContent } from '../inspect/forgotten-content';
import { compareEventOrder } from '../positions';
import { foldEvents, foldForCategory } from '../inspect/stream-folds';

/** A committed step of the replayed turn, with the event that committed it. */
export interface RecordedStep {
  step: CommittedStep;
  committed: EventEnvelope;
}

/**
 * What a turn's steps depend on, read once from the real store (reads only): the task stream,
 * every turn stream the task opened, the replayed turn's committed steps as its decider folds
 * them, and what forgettings took out of the task since.
 */
export interface ReplayRecord {
  turnId: string;
  taskId: string;
  workspaceId: string;
  taskEvents: EventEnvelope[];
  /** Stream id → its events, for the task's turns (the replayed one included). */
  turnStreams: Map<string, EventEnvelope[]>;
  steps: RecordedStep[];
  forgotten: ForgottenContent;
}

export async function readReplayRecord(events: Pick<EventStore, 'readStream'>, turnId: string): Promise<ReplayRecord> {
  const streamId = streams.turn(turnId);
  if (!isValidStreamId(streamId)) throw new UnknownTargetError('turn', turnId);
  const turnEvents = await events.readStream(streamId);
  const started = turnEvents[0];
  if (started === undefined || started.type !== 'TurnStarted') throw new UnknownTargetError('turn', turnId);
  const taskId = (started.data as { taskId: string }).taskId;
  const taskEvents = await events.readStream(streams.task(taskId));
  const turnIds = new Set(
    taskEvents.filter((e) => e.type === 'TurnOpened').map((e) => (e.data as { turnId: string }).turnId),
  );
  turnIds.add(turnId);
  const turnStreams = new Map<string, EventEnvelope[]>();
  for (const id of turnIds)
    turnStreams.set(streams.turn(id), id === turnId ? turnEvents : await events.readStream(streams.turn(id)));

  const state = foldEvents(foldForCategory('turn')!, turnEvents) as TurnState;
  const commits = new Map<number, EventEnvelope>();
  for (const e of turnEvents) {
    const step = (e.data as { step?: number }).step;
    if (e.type === 'ModelStepCommitted' && step !== undefined && !commits.has(step)) commits.set(step, e);
  }
  const steps =
    state.status === 'none'
      ? []
      : state.steps.flatMap((step) => {
          const committed = commits.get(step.step);
          return committed === undefined ? [] : [{ step, committed }];
        });
  return {
    turnId,
    taskId,
    workspaceId: started.metadata.workspaceId,
    taskEvents,
    turnStreams,
    steps,
    forgotten: new ForgottenContent(taskEvents, [...turnStreams.values()].flat()),
  };
}

/** Task events that take content out of later prompts: a copy cut earlier applies them too. */
const FORGETTING_TYPES = new Set(['ContextExcluded', 'HistorySegmentsExcluded']);

/** Writers that act on a task whenever they like, racing a step's model call: the person and the router. */
const isOutsideWrite = (e: EventEnvelope) =>
  e.metadata.actor.kind === 'user' || (e.metadata.actor.kind === 'system' && e.metadata.actor.component === 'router');

export interface StepEvents {
  /** What the step's prompt was built from, in global order. */
  before: EventEnvelope[];
  /** The task's forgettings recorded at or after the step's commit. */
  forgettings: EventEnvelope[];
  /** Outside writes between the step's start and its commit: taken as landed during its model call. */
  concurrent: EventEnvelope[];
}

/**
 * The events a step's prompt was built from: every event of the task and its turns before the
 * step's commit, in global order; then the task's forgettings recorded at or after it, so
 * content forgotten since stays out of the rebuilt prompt. A prompt is assembled as the step
 * starts (after its claim, or its turn's last event) and committed after the model answers: a
 * person's or the router's write in between most likely landed while the model was thinking, so
 * it is left out (and listed); the runtime's own writes there (its history segments) are kept.
 */
export function eventsBefore(record: ReplayRecord, recorded: RecordedStep): StepEvents {
  const commit = recorded.committed;
  const isBefore = (e: EventEnvelope) => compareEventOrder(e, commit) < 0;
  const own = (record.turnStreams.get(commit.metadata.streamId) ?? []).filter(isBefore);
  const claim = record.taskEvents.find((e) => {
    const d = e.data as { turnId?: string; step?: number };
    return e.type === 'InboxItemsClaimed' && d.turnId === record.turnId && d.step === recorded.step.step;
  });
  const started = [own.at(-1), claim]
    .filter((e): e is EventEnvelope => e !== undefined)
    .sort(compareEventOrder)
    .at(-1);
  const inFlight = (e: EventEnvelope) =>
    started !== undefined && compareEventOrder(e, started) > 0 && isBefore(e) && isOutsideWrite(e);
  const concurrent = record.taskEvents.filter(inFlight);
  const before = [...record.taskEvents, ...[...record.turnStreams.values()].flat()]
    .filter((e) => isBefore(e) && !inFlight(e))
    .sort(compareEventOrder);
  const forgettings = record.taskEvents.filter((e) => !isBefore(e) && FORGETTING_TYPES.has(e.type));
  return { before, forgettings, concurrent };
}
