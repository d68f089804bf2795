import { noticesConsumedAt, type ExistingTask, type ExistingTurn, type HistoryPoint } from '@lomo/domain';
import type { ChatMessage } from '@lomo/llm';
import { withoutWithdrawn } from './constraints';
import { describeNotices } from './describe-task';
import { renderCallOutcome } from './render-call-outcome';

/** One committed step of the task's history, as the model reads it, with what it costs. */
export interface HistoryStep {
  turnId: string;
  /** The turn's place among the task's turns (TaskBase.turns). */
  turnIndex: number;
  step: number;
  /** Set on a turn's first step: the turn's start marker precedes it. */
  turnReason: string | null;
  messages: ChatMessage[];
  tokens: number;
}

/** A shown history segment with its text (from the BlobStore). */
export interface ShownSegment {
  segmentId: string;
  covers: { from: HistoryPoint; to: HistoryPoint; steps: number };
  text: string;
  tokens: number;
}

/**
 * Every turn's steps begin with this marker: models see where a turn (a wake: the person's
 * message, an approval, the runtime's continuation) started, and the offline policy reads only
 * what follows the last one (libs/llm/src/offline/README.md).
 */
export const turnMarker = (reason: string): ChatMessage => ({ role: 'system', content: `Turn started (${reason}).` });

/**
 * One step as history: the notices it was shown, the person's messages it consumed (a withdrawn
 * constraint's words replaced: they stop influencing later steps), the model's reply with its
 * calls, and each call's result.
 */
export function renderHistoryStep(task: ExistingTask, turn: ExistingTurn, step: number): ChatMessage[] {
  const committed = turn.steps[step - 1];
  if (committed === undefined) return [];
  // Excluded by a forgetting's recorded provenance (ContextExcluded): the step's reply and tool
  // results relied on forgotten content, so they are left out (the person's own messages it
  // consumed stay, unless forgotten themselves).
  const excluded = task.excluded.steps.includes(`${turn.turnId}:${step}`);
  const out: ChatMessage[] = [];
  const shown = excluded ? [] : noticesConsumedAt(task, turn.turnId, step);
  if (shown.length > 0) out.push({ role: 'system', content: describeNotices(shown) });
  for (const itemId of committed.consumedItemIds) {
    const item = task.inbox[itemId];
    if (item === undefined) continue;
    if (task.excluded.messageIds.includes(item.messageId)) out.push({ role: 'user', content: FORGOTTEN_MESSAGE });
    else out.push({ role: 'user', content: withoutWithdrawn(task, itemId, item.text) });
  }
  if (excluded) {
    out.push({ role: 'system', content: EXCLUDED_STEP });
    return out;
  }
  const calls = committed.calls;
  out.push({
    role: 'assistant',
    content: committed.reply,
    ...(calls.length > 0
      ? { toolCalls: calls.map((c) => ({ id: c.callId, name: c.tool, arguments: JSON.stringify(c.arguments) })) }
      : {}),
  });
  for (const call of calls) out.push({ role: 'tool', toolCallId: call.callId, content: renderCallOutcome(call) });
  return out;
}

/** What stands in for a step or a message left out by a forgetting: never any of their words. */
export const EXCLUDED_STEP =
  '(The agent’s reply and tool results here are left out: they relied on something the person asked to forget.)';
export const FORGOTTEN_MESSAGE = '(A message the person asked to forget.)';

/** Orders history points: by turn (its place among the task's turns), then step. */
export function comparePoints(turns: readonly string[], a: HistoryPoint, b: HistoryPoint): number {
  const byTurn = turns.indexOf(a.turnId) - turns.indexOf(b.turnId);
  return byTurn !== 0 ? byTurn : a.step - b.step;
}

/** The segments a step shows: appended, not superseded, not excluded; in the order appended. */
export function activeSegments(task: ExistingTask) {
  return task.segments.filter((s) => s.supersededBy === null && !s.excluded);
}

/** The last history point the shown segments cover: steps after it are shown in full. */
export function coveredUpTo(task: ExistingTask): HistoryPoint | null {
  let last: HistoryPoint | null = null;
  for (const s of activeSegments(task))
    if (last === null || comparePoints(task.turns, s.covers.to, last) > 0) last = s.covers.to;
  return last;
}
