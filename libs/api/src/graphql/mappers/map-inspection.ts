import {
  isPurged,
  type InspectedInboxItem as InboxItemShape,
  type InspectedPrompt as PromptShape,
  type InspectedStep as StepShape,
  type InspectedTurn as TurnShape,
  type Purged,
  type TaskInspection as TaskShape,
  type TimelineEntry,
} from '@lomo/operator';
import type {
  InspectedInboxItem,
  InspectedPrompt,
  InspectedPromptMessage,
  InspectedStep,
  InspectedText,
  InspectedTimelineEntry,
  InspectedTurn,
  TaskInspection,
} from '../types/operator-inspection.types';

/** Free-form values go out as JSON text: `null` for absent, never `undefined` (not JSON). */
export const jsonText = (value: unknown): string => JSON.stringify(value ?? null);

const jsonTextOrNull = (value: unknown): string | null =>
  value === undefined || value === null ? null : jsonText(value);

export function mapText(value: string | Purged): InspectedText {
  return isPurged(value)
    ? { text: null, purged: true, purgedReason: value.reason }
    : { text: value, purged: false, purgedReason: null };
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

/** A chat message of unknown shape: its role and text when it has them, and all of it as JSON. */
function mapMessage(message: unknown): InspectedPromptMessage {
  const m = asRecord(message);
  const content =
    typeof m.content === 'string'
      ? m.content
      : Array.isArray(m.content)
        ? m.content
            .map((part) => asRecord(part).text)
            .filter((t): t is string => typeof t === 'string')
            .join('\n') || null
        : null;
  return { role: typeof m.role === 'string' ? m.role : null, content, json: jsonText(message) };
}

function mapPrompt(prompt: PromptShape): InspectedPrompt {
  const layersPurged = isPurged(prompt.layers);
  return {
    refJson: jsonTextOrNull(prompt.ref),
    canonicalJson: mapText(prompt.canonicalJson),
    layers: isPurged(prompt.layers)
      ? []
      : prompt.layers.map((l) => ({ layer: l.layer, tokens: l.tokens, messages: l.messages.map(mapMessage) })),
    layersPurged,
    layersPurgedReason: isPurged(prompt.layers) ? prompt.layers.reason : null,
    tools: [...prompt.tools],
  };
}

const mapEntry = (e: TimelineEntry): InspectedTimelineEntry => ({ ...e });

function mapInboxItem(item: InboxItemShape): InspectedInboxItem {
  return { ...item, text: mapText(item.text) };
}

export function mapInspectedStep(step: StepShape): InspectedStep {
  return {
    turnId: step.turnId,
    step: step.step,
    committedAt: step.committedAt,
    generation: step.generation,
    consumedItemIds: [...step.consumedItemIds],
    consumedInboxItems: step.consumedInboxItems.map(mapInboxItem),
    reply: step.reply === null ? null : mapText(step.reply),
    toolCallIntents: step.toolCallIntents.map((c) => ({
      callId: c.callId,
      tool: c.tool,
      argumentsJson: jsonText(c.arguments),
    })),
    prompt: step.prompt === undefined ? null : mapPrompt(step.prompt),
    promptRefJson: jsonTextOrNull(step.promptRef),
    usage: step.usage === null ? null : { ...step.usage },
    contextJson: jsonTextOrNull(step.context),
    ledger: step.ledger.map((l) => ({
      callId: l.callId,
      tool: l.tool,
      status: l.status,
      resultJson: jsonText(l.result),
      startedAt: l.startedAt,
      finishedAt: l.finishedAt,
    })),
    excluded: step.excluded,
  };
}

export function mapInspectedTurn(turn: TurnShape): InspectedTurn {
  return {
    turnId: turn.turnId,
    taskId: turn.taskId,
    workspaceId: turn.workspaceId,
    reason: turn.reason,
    status: turn.status,
    startedAt: turn.startedAt,
    endedAt: turn.endedAt,
    leases: turn.leases.map((l) => ({ ...l })),
    fencedGenerations: [...turn.fencedGenerations],
    staleWritesAccepted: turn.staleWritesAccepted.map((w) => ({ ...w })),
    steps: turn.steps.map(mapInspectedStep),
    waits: turn.waits.map((w) => ({ at: w.at, onJson: jsonText(w.on) })),
    timeline: turn.timeline.map(mapEntry),
  };
}

/** The inspection as GraphQL serves it; `feedCursor` is the resolver's, from the store's head. */
export function mapTaskInspection(task: TaskShape, feedCursor: string | null): TaskInspection {
  return {
    taskId: task.taskId,
    workspaceId: task.workspaceId,
    goal: mapText(task.goal),
    status: task.status,
    routing:
      task.routing === null
        ? null
        : {
            messageId: task.routing.messageId,
            outcome: task.routing.outcome,
            method: task.routing.method,
            candidatesJson: jsonText(task.routing.candidates),
            at: task.routing.at,
          },
    inbox: task.inbox.map(mapInboxItem),
    turns: task.turns.map(mapInspectedTurn),
    steps: task.steps.map(mapInspectedStep),
    generationJobs: task.generationJobs.map((j) => ({
      jobId: j.jobId,
      callId: j.callId,
      provider: j.provider,
      status: j.status,
      quoteJson: jsonText(j.quote),
      chargedMinor: j.chargedMinor,
      refundedMinor: j.refundedMinor,
      currency: j.currency,
    })),
    checkpoints: task.checkpoints.map((c) => ({
      checkpointId: c.checkpointId,
      kind: c.kind,
      openedAt: c.openedAt,
      resolutionJson: jsonTextOrNull(c.resolution),
      resolvedAt: c.resolvedAt,
    })),
    continuations: task.continuations.map((c) => ({ ...c })),
    timeline: task.timeline.map(mapEntry),
    feedCursor,
  };
}
