import type { BlobRef } from '@lomo/blobs';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { CommittedStep, ToolCall, TurnState } from '@lomo/domain';
import type { PromptArchive } from '@lomo/runtime';
import { purged, PURGE_REASONS } from './forgotten-content';
import { inspectPrompt } from './inspected-prompt';
import type { InspectedLease, InspectedLedgerEntry, InspectedStep, InspectedTurn } from './inspection.types';
import { compareEventOrder } from '../positions';
import { foldForCategory } from './stream-folds';
import type { TaskRecord } from './task-record';
import { timelineEntry } from './timeline';

const turnFold = foldForCategory('turn')!;
const evolve = (state: TurnState, e: EventEnvelope): TurnState =>
  turnFold.eventTypes.has(e.type)
    ? (turnFold.evolve(state, { type: e.type, data: e.data, recordedBy: e.metadata.actor }) as TurnState)
    : state;

const generationOf = (state: TurnState) => (state.status === 'none' ? 0 : state.generation);

/** The events of the task stream about this turn (claims, its opening and closing, its cards). */
const namesTurn = (e: EventEnvelope, turnId: string) => (e.data as { turnId?: unknown } | null)?.turnId === turnId;

/** One turn: its leases and fencing, its steps with prompts, replies and ledger, and its timeline. */
export async function inspectTurnOf(
  record: TaskRecord,
  turnId: string,
  turnEvents: readonly EventEnvelope[],
  archive: PromptArchive | undefined,
): Promise<InspectedTurn> {
  const turnStream = streams.turn(turnId);
  const events = [...turnEvents, ...record.taskEvents.filter((e) => namesTurn(e, turnId))].sort(compareEventOrder);

  let state: TurnState = turnFold.initialState() as TurnState;
  const leases: InspectedLease[] = [];
  const fenced = new Set<number>();
  const stale: InspectedTurn['staleWritesAccepted'] = [];
  const stepEvents = new Map<number, EventEnvelope>();
  const callTimes = new Map<string, { startedAt: string | null; finishedAt: string | null }>();
  const waits: InspectedTurn['waits'] = [];
  let startedAt: string | null = null;
  let endedAt: string | null = null;

  for (const e of events) {
    const written = e.metadata.generation;
    const leaseGeneration = generationOf(state);
    // A write of an older generation than the lease's at that point: the fence let it through.
    if (written !== undefined && e.type !== 'TurnLeased' && written < leaseGeneration)
      stale.push({
        streamId: e.metadata.streamId,
        revision: e.metadata.revision,
        type: e.type,
        generation: written,
        leaseGeneration,
      });
    if (e.metadata.streamId !== turnStream) continue;
    const d = e.data as Record<string, unknown>;
    switch (e.type) {
      case 'TurnStarted':
        startedAt ??= e.metadata.occurredAt;
        break;
      case 'TurnLeased':
      case 'TurnLeaseRenewed': {
        // A lease taken while another was held (not released by a wait) fences the holder off.
        const takeover = e.type === 'TurnLeased' && state.status === 'running' && state.lease !== null;
        if (takeover) fenced.add(leaseGeneration);
        leases.push({
          workerId: String(d.workerId),
          generation: Number(d.generation),
          leaseUntil: String(d.leaseUntil),
          at: e.metadata.occurredAt,
          takeover,
        });
        break;
      }
      case 'ModelStepCommitted':
        if (!stepEvents.has(Number(d.step))) stepEvents.set(Number(d.step), e);
        break;
      case 'ToolCallStarted': {
        const times = callTimes.get(String(d.callId)) ?? { startedAt: null, finishedAt: null };
        callTimes.set(String(d.callId), { ...times, startedAt: times.startedAt ?? e.metadata.occurredAt });
        break;
      }
      case 'ToolCallCompleted':
      case 'ToolCallOutcomeUnknown': {
        const times = callTimes.get(String(d.callId)) ?? { startedAt: null, finishedAt: null };
        callTimes.set(String(d.callId), { ...times, finishedAt: e.metadata.occurredAt });
        break;
      }
      case 'TurnWaiting':
        waits.push({ at: e.metadata.occurredAt, on: d.on });
        break;
      case 'TurnCompleted':
      case 'TurnFailed':
      case 'TurnCancelled':
        endedAt ??= e.metadata.occurredAt;
        break;
    }
    state = evolve(state, e);
  }

  const steps: InspectedStep[] = [];
  if (state.status !== 'none')
    for (const step of state.steps)
      steps.push(await stepOf(record, turnId, step, stepEvents.get(step.step), callTimes, archive));

  return {
    turnId,
    taskId: state.status === 'none' ? record.taskId : state.taskId,
    workspaceId: record.workspaceId,
    reason: state.status === 'none' ? null : state.reason,
    status: state.status,
    startedAt,
    endedAt,
    leases,
    fencedGenerations: [...fenced].sort((a, b) => a - b),
    staleWritesAccepted: stale,
    steps,
    waits,
    timeline: events.map(timelineEntry),
  };
}

async function stepOf(
  record: TaskRecord,
  turnId: string,
  step: CommittedStep,
  committed: EventEnvelope | undefined,
  callTimes: ReadonlyMap<string, { startedAt: string | null; finishedAt: string | null }>,
  archive: PromptArchive | undefined,
): Promise<InspectedStep> {
  const { forgotten } = record;
  const excluded = forgotten.isStepExcluded(turnId, step.step);
  const hide = excluded ? purged(PURGE_REASONS.forgotten) : null;
  const builtWhileForgotten = committed !== undefined && forgotten.wasInContextAt(committed.metadata.globalPosition);
  const promptPurge = excluded
    ? PURGE_REASONS.forgotten
    : builtWhileForgotten
      ? PURGE_REASONS.builtWhileForgotten
      : null;
  const reply =
    hide ??
    (forgotten.quotesForgotten(JSON.stringify(step.reply)) ? purged(PURGE_REASONS.quotesForgotten) : step.reply);
  return {
    turnId,
    step: step.step,
    committedAt: committed?.metadata.occurredAt ?? '',
    generation: committed?.metadata.generation ?? null,
    consumedItemIds: [...step.consumedItemIds],
    consumedInboxItems: step.consumedItemIds.flatMap((id) => record.inbox.get(id) ?? []),
    reply,
    toolCallIntents: step.calls.map((c) => ({ callId: c.callId, tool: c.tool, arguments: hide ?? c.arguments })),
    ...(archive !== undefined
      ? { prompt: await inspectPrompt(archive, step.promptRef as BlobRef, forgotten, promptPurge) }
      : {}),
    promptRef: step.promptRef,
    usage: { inputTokens: step.usage.inputTokens, outputTokens: step.usage.outputTokens },
    context: step.context,
    ledger: step.calls.map((c) => ledgerEntry(c, callTimes.get(c.callId), hide)),
    excluded,
  };
}

function ledgerEntry(
  call: ToolCall,
  times: { startedAt: string | null; finishedAt: string | null } | undefined,
  hide: ReturnType<typeof purged> | null,
): InspectedLedgerEntry {
  const status: InspectedLedgerEntry['status'] =
    call.status === 'unknown'
      ? 'outcome_unknown'
      : call.status === 'completed'
        ? call.outcome === 'error'
          ? 'failed'
          : 'completed'
        : call.status;
  const result =
    call.status === 'completed'
      ? call.outcome === 'error'
        ? (call.error ?? null)
        : call.resultRef !== undefined
          ? { resultRef: call.resultRef }
          : (call.result ?? null)
      : call.status === 'unknown'
        ? { reason: call.unknownReason ?? null }
        : null;
  return {
    callId: call.callId,
    tool: call.tool,
    status,
    result: hide !== null && call.status === 'completed' ? hide : result,
    startedAt: times?.startedAt ?? null,
    finishedAt: times?.finishedAt ?? null,
  };
}
