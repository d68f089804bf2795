import { handleCommand } from '@lomo/command-handling';
import { streams, type EventEnvelope, type WriteMetadata } from '@lomo/contracts';
import { taskDecider, taskEventTypes, type ExistingTask, type TaskCommand, type TaskEvent } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import type { IdGenerator } from '@lomo/contracts';
import { FORGOTTEN_GOAL } from '@lomo/routing';
import { closeOverHistory, type CommittedStep } from './second-hand-steps';

export interface TaskExclusion {
  taskId: string;
  messageIds: string[];
  steps: { turnId: string; step: number }[];
  segmentIds: string[];
  /** Excluded steps' tool calls that wrote the brief or a checklist plan (absent when none). */
  calls?: string[];
}

interface StepRecord {
  consumedItemIds: string[];
  toolCallIntents: { callId: string }[];
  context?: { segments: string[]; memory?: { versionIds: string[] } };
}

/** The steps other forgettings' ContextExcluded left out of this task (a re-run keeps its own closure). */
function excludedByOthers(events: readonly EventEnvelope[], forgettingId: string): Set<string> {
  const out = new Set<string>();
  for (const e of events) {
    if (e.type !== 'ContextExcluded') continue;
    const data = e.data as { forgettingId: string; steps: { turnId: string; step: number }[] };
    if (data.forgettingId === forgettingId) continue;
    for (const s of data.steps) out.add(`${s.turnId}:${s.step}`);
  }
  return out;
}

/**
 * What a forgetting excludes from a task's later prompts, by recorded provenance only (article
 * §7.3, last paragraphs): the forgotten messages the task holds; every committed step that
 * consumed one of them or was shown a purged memory version (ModelStepCommitted.context.memory),
 * whose reply and tool results relied on them, and every later step whose prompt showed such a
 * step, in full or summarized (second-hand, closeOverHistory); and the history segments that
 * summarize an excluded step. Never text matching: an unrelated "blue sky" stays.
 */
export async function findExclusion(
  store: Pick<EventStore, 'readStream'>,
  taskId: string,
  forgottenMessageIds: ReadonlySet<string>,
  purgedVersionIds: ReadonlySet<string>,
  forgettingId: string,
): Promise<TaskExclusion | null> {
  const events = await store.readStream(streams.task(taskId)).catch(() => [] as EventEnvelope[]);
  if (events.length === 0) return null;
  let state = taskDecider.initialState();
  for (const e of events) state = taskDecider.evolve(state, { type: e.type, data: e.data } as TaskEvent);
  if (state.status === 'none') return null;
  const task = state as ExistingTask;
  const messageIds = Object.values(task.inbox)
    .map((i) => i.messageId)
    .filter((id) => forgottenMessageIds.has(id));
  const committed: CommittedStep[] = [];
  const callsOf = new Map<string, string[]>();
  for (const turnId of task.turns) {
    const turn = await store.readStream(streams.turn(turnId)).catch(() => [] as EventEnvelope[]);
    for (const e of turn) {
      if (e.type !== 'ModelStepCommitted') continue;
      const data = e.data as StepRecord & { step: number };
      const sawMessage = data.consumedItemIds.some((id) => forgottenMessageIds.has(id));
      const sawVersion = (data.context?.memory?.versionIds ?? []).some((id) => purgedVersionIds.has(id));
      callsOf.set(
        `${turnId}:${data.step}`,
        data.toolCallIntents.map((c) => c.callId),
      );
      committed.push({
        turnId,
        step: data.step,
        direct: sawMessage || sawVersion,
        ...(data.context !== undefined ? { segments: data.context.segments } : {}),
      });
    }
  }
  const steps = closeOverHistory({
    steps: committed,
    segments: task.segments,
    excludedBefore: excludedByOthers(events, forgettingId),
  });
  const position = (turnId: string, step: number) => [task.turns.indexOf(turnId), step] as const;
  const before = (a: readonly [number, number], b: readonly [number, number]) =>
    a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);
  const segmentIds = task.segments
    .filter((s) => !s.excluded)
    .filter((s) =>
      steps.some((x) => {
        const p = position(x.turnId, x.step);
        return (
          before(position(s.covers.from.turnId, s.covers.from.step), p) &&
          before(p, position(s.covers.to.turnId, s.covers.to.step))
        );
      }),
    )
    .map((s) => s.segmentId);
  // The brief's and the checklist plan's provenance is the tool call that wrote them.
  const excludedCalls = new Set(steps.flatMap((s) => callsOf.get(`${s.turnId}:${s.step}`) ?? []));
  const calls = [
    ...new Set(
      events.flatMap((e) => {
        if (e.type !== 'BriefUpdated' && e.type !== 'ChecklistPlanned') return [];
        const callId = (e.data as { callId?: string }).callId;
        return callId !== undefined && excludedCalls.has(callId) ? [callId] : [];
      }),
    ),
  ];
  if (messageIds.length === 0 && steps.length === 0 && segmentIds.length === 0) return null;
  return { taskId, messageIds, steps, segmentIds, ...(calls.length > 0 ? { calls } : {}) };
}

/**
 * Writes one task's exclusion (idempotent per forgetting): segments first, then ContextExcluded,
 * and a fresh routing summary when the task's current one was written after an excluded step's
 * turn (the routing index and its summary vector then follow the projection).
 */
export async function applyExclusion(
  deps: { store: EventStore; ids: IdGenerator },
  exclusion: TaskExclusion,
  forgettingId: string,
  metadata: WriteMetadata,
): Promise<void> {
  const commands: TaskCommand[] = [];
  if (exclusion.segmentIds.length > 0)
    commands.push({ type: 'ExcludeHistorySegments', segmentIds: exclusion.segmentIds, reason: 'forgotten' });
  commands.push({
    type: 'ExcludeContext',
    forgettingId,
    messageIds: exclusion.messageIds,
    steps: exclusion.steps,
    ...(exclusion.calls !== undefined ? { calls: exclusion.calls } : {}),
  });
  await handleCommand(
    deps.store,
    streams.task(exclusion.taskId),
    taskDecider,
    (state) => {
      if (state.status === 'none') return [];
      if (state.excluded.forgettings.includes(forgettingId)) return [];
      const excludedTurns = new Set(exclusion.steps.map((s) => s.turnId));
      const stale =
        state.summary !== null && (excludedTurns.size > 0 || exclusion.messageIds.includes(state.originMessageId));
      const goal = exclusion.messageIds.includes(state.originMessageId) ? FORGOTTEN_GOAL : state.goal;
      return stale
        ? [...commands, { type: 'UpdateTaskSummary' as const, summary: goal.slice(0, 1000), by: metadata.actor }]
        : commands;
    },
    { eventTypes: taskEventTypes, metadata, ids: deps.ids },
  );
}
