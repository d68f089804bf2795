import { canonicalJson } from '@lomo/contracts';
import type { CommittedStep, ToolCall } from '@lomo/domain';
import type { ModelToolCall } from '@lomo/llm';
import type { CallDiff, ComparedCall, RecordedOutcome } from './replay.types';

/** What a step decided: its reply and its tool-call intents. */
export interface Decision {
  reply: string;
  calls: ComparedCall[];
}

export interface DecisionDiff {
  reply: { recorded: string; replayed: string; equal: boolean };
  toolCalls: CallDiff[];
  /** The reply or the calls differ from the record. */
  diverged: boolean;
  /** A call the record has no result for: nothing ran, so the branch stops here. */
  stubbed: boolean;
}

/** The recorded decision of a committed step. */
export const recordedDecision = (step: CommittedStep): Decision => ({
  reply: step.reply,
  calls: step.calls.map((c) => ({ tool: c.tool, arguments: c.arguments })),
});

/** A model's answer as a decision; arguments parsed as the runtime parses them (tool-call-intents.ts). */
export const replayedDecision = (text: string, toolCalls: readonly ModelToolCall[]): Decision => ({
  reply: text,
  calls: toolCalls.map((c) => ({ tool: c.name, arguments: parseArguments(c.arguments) })),
});

/**
 * The replayed decision against the recorded step: the reply compared as text, each replayed
 * call paired with a recorded call of the same tool and arguments (canonical JSON), whose
 * recorded outcome is reused; a call without one is stubbed, a recorded call not made is
 * `not_called`.
 */
export function diffDecision(recorded: CommittedStep, replayed: Decision): DecisionDiff {
  const unused = [...recorded.calls];
  const toolCalls: CallDiff[] = [];
  for (const call of replayed.calls) {
    const key = keyOf(call);
    const index = unused.findIndex((r) => keyOf(r) === key);
    const match = index < 0 ? undefined : unused.splice(index, 1)[0];
    const outcome = match === undefined ? undefined : outcomeOf(match);
    toolCalls.push({
      callId: match === undefined ? null : match.callId,
      tool: call.tool,
      recorded: match === undefined ? null : match.arguments,
      replayed: call.arguments,
      status: outcome === undefined ? 'stubbed' : 'reused',
      ...(outcome !== undefined ? { outcome } : {}),
    });
  }
  for (const r of unused)
    toolCalls.push({ callId: r.callId, tool: r.tool, recorded: r.arguments, replayed: null, status: 'not_called' });
  const replyEqual = replayed.reply === recorded.reply;
  const callsEqual = toolCalls.every((c) => c.recorded !== null && c.replayed !== null);
  return {
    reply: { recorded: recorded.reply, replayed: replayed.reply, equal: replyEqual },
    toolCalls,
    diverged: !replyEqual || !callsEqual,
    stubbed: toolCalls.some((c) => c.status === 'stubbed'),
  };
}

const keyOf = (call: { tool: string; arguments: unknown }) => `${call.tool}\u0000${canonicalJson(call.arguments)}`;

/** A recorded call's outcome, when the record has one. */
function outcomeOf(call: ToolCall): RecordedOutcome | undefined {
  if (call.status === 'unknown') return { status: 'unknown', reason: call.unknownReason ?? null };
  if (call.status !== 'completed') return undefined;
  if (call.outcome === 'error') return { status: 'error', result: call.error ?? null };
  return {
    status: 'ok',
    result:
      call.resultRef !== undefined
        ? { resultRef: call.resultRef, summary: call.result ?? null }
        : (call.result ?? null),
  };
}

function parseArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
