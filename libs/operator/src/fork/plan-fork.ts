import { deterministicUuid, streams, type Actor, type EventEnvelope, type NewEvent } from '@lomo/contracts';
import {
  isTurnTerminal,
  taskDecider,
  turnDecider,
  type TaskCommand,
  type TaskEvent,
  type TaskState,
  type TurnCommand,
  type TurnEvent,
  type TurnState,
  type WakeReason,
} from '@lomo/domain';
import { BadPositionError } from '../errors';
import { comparePositions } from '../positions';
import { ForkBeyondTaskError, StepNotCommittedError, TurnNotOfTaskError } from './fork-errors';
import { describeForkPoint, type ForkPoint } from './fork-point';

/** What a fork is made from: the source task's stream and its turns' streams, read whole. */
export interface ForkSource {
  taskId: string;
  taskEvents: readonly EventEnvelope[];
  /** Every turn stream of the task, by turn id (a turn with no stream yet may be absent). */
  turns: ReadonlyMap<string, readonly EventEnvelope[]>;
}

export interface ForkRequest {
  at: ForkPoint;
  /** The new task's id (fresh for each fork: two forks of one point are two tasks). */
  forkTaskId: string;
  /** The operator forking, recorded as the fork's author. */
  operatorUserId: string;
  /** The id of the operator action: the correlation id of every event the fork writes. */
  actionId: string;
}

/** One stream the fork creates, appended with "no stream" expected. */
export interface ForkWrite {
  streamId: string;
  events: NewEvent[];
}

export interface ForkPlan {
  forkTaskId: string;
  workspaceId: string;
  sourceTaskId: string;
  /** The last source task revision copied, and the global position the fork was cut at. */
  sourceRevision: number;
  sourcePosition: string;
  atStep?: { turnId: string; step: number };
  turns: Array<{ sourceTurnId: string; forkTurnId: string }>;
  /** The fork's copy of the turn that was running at the cut, cancelled there. */
  cancelledTurnId?: string;
  /** Turn streams first, the task stream last (its existence is the fork's). */
  writes: ForkWrite[];
  /** Events copied from the source, and events the fork added (lineage, the cancelled turn). */
  copied: number;
  added: number;
}

const FORK_NS = 'lomo.fork';
const CALL_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(:[1-9][0-9]*:[0-9]+)$/;

/**
 * Issue 20, `lomo task fork`, pure: from the source's streams and a point, the streams of a new
 * task that starts where the source stood. The source's task stream up to the point's revision is
 * copied to `task-{fork}`, and each of its turns up to the same global position to a turn stream of
 * a new id: new event ids, the task, turn, call and checkpoint ids rewritten wherever the data
 * carries them, each copy caused by its source event and written with its actor. A turn running at
 * the cut is cancelled in the fork (its uncommitted claims released, as a stop does), and
 * `ForkedFrom` names the source and the point. The source's streams are only read.
 */
export function planFork(source: ForkSource, request: ForkRequest): ForkPlan {
  const { taskEvents } = source;
  if (taskEvents.length === 0) throw new BadPositionError(describeForkPoint(request.at), 'the task has no events');
  const cut = cutOf(source, request.at);
  const copiedTask = taskEvents.slice(0, cut.revision + 1);
  const workspaceId = copiedTask[0].metadata.workspaceId;
  const sourceTurns = turnsOpened(copiedTask);
  const ids = idMap(source.taskId, request.forkTaskId, sourceTurns, copiedTask);
  const rewrite = (value: unknown) => rewriteIds(value, ids);
  const copy = (event: EventEnvelope): NewEvent => ({
    eventId: deterministicUuid(FORK_NS, request.forkTaskId, event.metadata.eventId),
    type: event.type,
    data: rewrite(event.data),
    metadata: {
      correlationId: request.actionId,
      causationId: event.metadata.eventId,
      workspaceId,
      actor: event.metadata.actor,
      ...(event.metadata.generation !== undefined ? { generation: event.metadata.generation } : {}),
    },
  });
  const operator: Actor = { kind: 'user', userId: request.operatorUserId };
  const added = (type: string, data: unknown, index: string): NewEvent => ({
    eventId: deterministicUuid(FORK_NS, request.forkTaskId, request.actionId, index),
    type,
    data,
    metadata: { correlationId: request.actionId, causationId: null, workspaceId, actor: operator },
  });

  const writes: ForkWrite[] = [];
  const turns = sourceTurns.map((sourceTurnId) => ({ sourceTurnId, forkTurnId: ids.get(sourceTurnId)! }));
  let copied = copiedTask.length;
  let extra = 0;
  const turnStates = new Map<string, TurnState>();
  for (const { sourceTurnId, forkTurnId } of turns) {
    const events = (source.turns.get(sourceTurnId) ?? []).filter((e) => before(e, cut.position) <= 0).map(copy);
    copied += events.length;
    turnStates.set(forkTurnId, foldTurn(events));
    if (events.length > 0) writes.push({ streamId: streams.turn(forkTurnId), events });
  }

  const taskCopies = copiedTask.map(copy);
  const folded = foldTask(taskCopies);
  const activeTurnId = folded.status === 'none' ? null : folded.activeTurnId;
  const commands: TaskCommand[] = [
    {
      type: 'RecordFork',
      sourceTaskId: source.taskId,
      sourceRevision: cut.revision,
      sourcePosition: cut.position,
      ...(cut.atStep !== undefined ? { atStep: cut.atStep } : {}),
      turns,
      ...(activeTurnId !== null ? { cancelledTurnId: activeTurnId } : {}),
      by: request.operatorUserId,
    },
  ];
  if (activeTurnId !== null) {
    const turnState = turnStates.get(activeTurnId) ?? { status: 'none' };
    const opened = taskCopies.find(
      (e) => e.type === 'TurnOpened' && (e.data as { turnId: string }).turnId === activeTurnId,
    );
    const reason = (opened?.data as { reason: WakeReason } | undefined)?.reason ?? 'message';
    const turnEvents = closeTurnEvents(turnState, activeTurnId, request.forkTaskId, operator, reason);
    if (turnEvents.length > 0) {
      const newEvents = turnEvents.map((e, i) => added(e.type, e.data, `turn-${activeTurnId}-${i}`));
      const existing = writes.find((w) => w.streamId === streams.turn(activeTurnId));
      if (existing !== undefined) existing.events.push(...newEvents);
      else writes.push({ streamId: streams.turn(activeTurnId), events: newEvents });
      extra += newEvents.length;
    }
    const ended = turnEvents.reduce((s, e) => turnDecider.evolve(s, e), turnState);
    const outcome = ended.status === 'completed' || ended.status === 'failed' ? ended.status : 'cancelled';
    const committed = ended.status === 'none' ? 0 : ended.steps.length;
    const released = { completed: 'step_abandoned', failed: 'turn_failed', cancelled: 'turn_cancelled' } as const;
    commands.push(
      { type: 'ReleaseClaims', turnId: activeTurnId, step: committed + 1, reason: released[outcome] },
      { type: 'CloseTurn', turnId: activeTurnId, outcome },
    );
  }
  let state = folded;
  const forkEvents: TaskEvent[] = [];
  for (const command of commands)
    for (const event of taskDecider.decide(command, state)) {
      state = taskDecider.evolve(state, event);
      forkEvents.push(event);
    }
  // Forgetting reaches the fork too: the source's exclusions written after the cut, for what was copied.
  const carried = carriedExclusions(source, cut, copiedTask, sourceTurns).map(copy);
  const taskWrite = [...taskCopies, ...forkEvents.map((e, i) => added(e.type, e.data, `task-${i}`)), ...carried];
  extra += forkEvents.length;
  copied += carried.length;
  writes.push({ streamId: streams.task(request.forkTaskId), events: taskWrite });
  return {
    forkTaskId: request.forkTaskId,
    workspaceId,
    sourceTaskId: source.taskId,
    sourceRevision: cut.revision,
    sourcePosition: cut.position,
    ...(cut.atStep !== undefined ? { atStep: cut.atStep } : {}),
    turns,
    ...(activeTurnId !== null ? { cancelledTurnId: activeTurnId } : {}),
    writes,
    copied,
    added: extra,
  };
}

interface Cut {
  revision: number;
  position: string;
  atStep?: { turnId: string; step: number };
}

function before(event: EventEnvelope, position: string): number {
  const order = comparePositions(event.metadata.globalPosition, position);
  if (order === undefined)
    throw new BadPositionError(position, `the store's positions cannot be compared (${event.metadata.globalPosition})`);
  return order;
}

function cutOf(source: ForkSource, at: ForkPoint): Cut {
  const { taskEvents, taskId } = source;
  const head = taskEvents.length - 1;
  if (at.kind === 'revision') {
    if (at.revision > head) throw new ForkBeyondTaskError(taskId, at.revision, head);
    return { revision: at.revision, position: taskEvents[at.revision].metadata.globalPosition };
  }
  if (!turnsOpened(taskEvents).includes(at.turnId)) throw new TurnNotOfTaskError(taskId, at.turnId);
  const commits = (source.turns.get(at.turnId) ?? []).filter((e) => e.type === 'ModelStepCommitted');
  const commit = commits.find((e) => (e.data as { step: number }).step === at.step);
  if (commit === undefined) throw new StepNotCommittedError(at.turnId, at.step, commits.length);
  const position = commit.metadata.globalPosition;
  // The task as the step committed: its events before the commit (another stream's, never at it).
  let revision = -1;
  for (const event of taskEvents) if (before(event, position) < 0) revision = event.metadata.revision;
  if (revision < 0) throw new StepNotCommittedError(at.turnId, at.step, 0);
  return { revision, position, atStep: { turnId: at.turnId, step: at.step } };
}

/**
 * The source's `ContextExcluded` and `HistorySegmentsExcluded` written after the cut (a forgetting,
 * or a correction, that came later), narrowed to what the fork copied: the forgotten messages its
 * inbox holds, the steps of its turns up to the cut, the segments it holds, the calls whose brief
 * or checklist plan it holds. A fork cut before a
 * forgetting is made after it, or before the forgetting reaches it: either way what the person
 * had forgotten never reaches a prompt through the copy (the text the copies hold, of messages
 * and replies, is kept out by provenance as in the source; DESIGN.md §4 "Deletable content").
 */
function carriedExclusions(
  source: ForkSource,
  cut: Cut,
  copiedTask: readonly EventEnvelope[],
  copiedTurns: readonly string[],
): EventEnvelope[] {
  const later = source.taskEvents.slice(cut.revision + 1);
  const messages = new Set(
    copiedTask
      .filter((e) => e.type === 'MessageDeliveredToInbox')
      .map((e) => (e.data as { messageId: string }).messageId),
  );
  const segments = new Set(
    copiedTask
      .filter((e) => e.type === 'HistorySegmentAppended')
      .map((e) => (e.data as { segmentId: string }).segmentId),
  );
  // The brief and checklist plans the copy holds, by the tool call that wrote them.
  const writtenBy = new Set(
    copiedTask
      .filter((e) => e.type === 'BriefUpdated' || e.type === 'ChecklistPlanned')
      .flatMap((e) => {
        const callId = (e.data as { callId?: string }).callId;
        return callId === undefined ? [] : [callId];
      }),
  );
  const steps = new Set<string>();
  for (const turnId of copiedTurns)
    for (const e of source.turns.get(turnId) ?? [])
      if (e.type === 'ModelStepCommitted' && before(e, cut.position) <= 0)
        steps.add(`${turnId}#${(e.data as { step: number }).step}`);
  const carried: EventEnvelope[] = [];
  for (const e of later) {
    if (e.type === 'ContextExcluded') {
      const data = e.data as {
        forgettingId: string;
        messageIds: string[];
        steps: Array<{ turnId: string; step: number }>;
        calls?: string[];
      };
      const calls = (data.calls ?? []).filter((id) => writtenBy.has(id));
      const narrowed = {
        forgettingId: data.forgettingId,
        messageIds: data.messageIds.filter((id) => messages.has(id)),
        steps: data.steps.filter((x) => steps.has(`${x.turnId}#${x.step}`)),
        ...(calls.length > 0 ? { calls } : {}),
      };
      if (narrowed.messageIds.length > 0 || narrowed.steps.length > 0) carried.push({ ...e, data: narrowed });
    } else if (e.type === 'HistorySegmentsExcluded') {
      const data = e.data as { segmentIds: string[]; reason: string };
      const segmentIds = data.segmentIds.filter((id) => segments.has(id));
      if (segmentIds.length > 0) carried.push({ ...e, data: { ...data, segmentIds } });
    }
  }
  return carried;
}

const turnsOpened = (taskEvents: readonly EventEnvelope[]): string[] => [
  ...new Set(taskEvents.filter((e) => e.type === 'TurnOpened').map((e) => (e.data as { turnId: string }).turnId)),
];

/** The source's ids and the fork's, derived from the fork's id so a repeated plan is the same plan. */
function idMap(
  sourceTaskId: string,
  forkTaskId: string,
  turns: readonly string[],
  taskEvents: readonly EventEnvelope[],
): Map<string, string> {
  const ids = new Map<string, string>([[sourceTaskId, forkTaskId]]);
  for (const turnId of turns) ids.set(turnId, deterministicUuid(FORK_NS, forkTaskId, 'turn', turnId));
  for (const event of taskEvents)
    if (event.type === 'CheckpointOpened') {
      const { checkpointId } = event.data as { checkpointId: string };
      ids.set(checkpointId, deterministicUuid(FORK_NS, forkTaskId, 'checkpoint', checkpointId));
    }
  return ids;
}

/** Every string of the data that is one of the mapped ids, or a call id of a mapped turn, rewritten. */
export function rewriteIds(value: unknown, ids: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    const mapped = ids.get(value);
    if (mapped !== undefined) return mapped;
    const call = CALL_ID.exec(value);
    const turn = call === null ? undefined : ids.get(call[1]);
    return turn === undefined ? value : `${turn}${call![2]}`;
  }
  if (Array.isArray(value)) return value.map((v) => rewriteIds(v, ids));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteIds(v, ids)]));
  return value;
}

const asTaskEvent = (e: NewEvent) => ({ type: e.type, data: e.data, recordedBy: e.metadata.actor }) as TaskEvent;
const asTurnEvent = (e: NewEvent) => ({ type: e.type, data: e.data }) as TurnEvent;

function foldTask(events: readonly NewEvent[]): TaskState {
  return events.reduce((s, e) => taskDecider.evolve(s, asTaskEvent(e)), taskDecider.initialState());
}

function foldTurn(events: readonly NewEvent[]): TurnState {
  return events.reduce((s, e) => turnDecider.evolve(s, asTurnEvent(e)), turnDecider.initialState());
}

/**
 * The fork's copy of the turn running at the cut ends there: cancelled by the operator (started
 * first if the cut fell between TurnOpened and TurnStarted); one that had ended on its turn stream
 * is left as it ended.
 */
function closeTurnEvents(state: TurnState, turnId: string, taskId: string, by: Actor, reason: WakeReason): TurnEvent[] {
  const commands: TurnCommand[] = [];
  if (state.status === 'none') commands.push({ type: 'StartTurn', turnId, taskId, reason });
  else if (isTurnTerminal(state)) return [];
  commands.push({ type: 'CancelTurn', by, reason: 'operator' });
  const events: TurnEvent[] = [];
  let current: TurnState = state;
  for (const command of commands)
    for (const event of turnDecider.decide(command, current)) {
      current = turnDecider.evolve(current, event);
      events.push(event);
    }
  return events;
}
