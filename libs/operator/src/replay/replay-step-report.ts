import type { Prompt } from '@lomo/runtime';
import { purged, PURGE_REASONS } from '../inspect/forgotten-content';
import type { Purged } from '../inspect/inspection.types';
import { promptText } from './prompt-fingerprint';
import type { RecordedStep, ReplayRecord } from './replay-record';
import type { ReplayedStep } from './replay.types';

// How a step shows in a replay report when a forgetting touched it: the flag saying its stored
// prompt depended on forgotten content, and its recorded texts purged as the inspections purge
// them (libs/operator/src/inspect/forgotten-content.ts); and a step after the branch stopped.

/** Whether the step's stored prompt depended on forgotten content, and why. */
export function forgottenFlag(
  record: ReplayRecord,
  recorded: RecordedStep,
  stored: Prompt | undefined,
  forgottenInput: readonly string[],
): ReplayedStep['forgotten'] {
  if (excluded(record, recorded)) return { flagged: true, reason: PURGE_REASONS.forgotten };
  const builtWhile =
    forgottenInput.length > 0 ||
    record.forgotten.wasInContextAt(recorded.committed.metadata.globalPosition) ||
    (stored !== undefined && record.forgotten.quotesForgotten(promptText(stored)));
  return builtWhile ? { flagged: true, reason: PURGE_REASONS.builtWhileForgotten } : { flagged: false, reason: null };
}

export const excluded = (record: ReplayRecord, recorded: RecordedStep) =>
  record.forgotten.isStepExcluded(record.turnId, recorded.step.step);

/** The recorded reply as an operator may see it: never a forgotten step's, never one quoting forgotten text. */
export function shownReply(record: ReplayRecord, recorded: RecordedStep): string | Purged {
  if (excluded(record, recorded)) return purged(PURGE_REASONS.forgotten);
  return shownText(record, recorded.step.reply);
}

/** A text as an operator may see it: purged when it quotes forgotten content. */
export const shownText = (record: ReplayRecord, text: string): string | Purged =>
  record.forgotten.quotesForgotten(JSON.stringify(text)) ? purged(PURGE_REASONS.quotesForgotten) : text;

/** A forgotten step's calls: recorded arguments and outcomes hidden, and the replayed ones when they are the record's. */
export function hideRecorded<T extends { recorded: unknown; replayed: unknown; outcome?: unknown }>(
  call: T,
  replayedIsRecord: boolean,
): T {
  const hidden = purged(PURGE_REASONS.forgotten);
  return {
    ...call,
    recorded: call.recorded === null ? null : hidden,
    ...(replayedIsRecord && call.replayed !== null ? { replayed: hidden } : {}),
    ...(call.outcome !== undefined ? { outcome: hidden } : {}),
  };
}

/** A step after the branch stopped: its record (as it may be shown), nothing replayed. */
export function notReplayed(record: ReplayRecord, recorded: RecordedStep): ReplayedStep {
  return {
    step: recorded.step.step,
    status: 'not_replayed',
    context: null,
    forgotten: forgottenFlag(record, recorded, undefined, []),
    concurrent: [],
    patched: [],
    reply: { recorded: shownReply(record, recorded), replayed: null, equal: false },
    toolCalls: recorded.step.calls.map((c) => ({
      callId: c.callId,
      tool: c.tool,
      recorded: excluded(record, recorded) ? purged(PURGE_REASONS.forgotten) : c.arguments,
      replayed: null,
      status: 'not_replayed' as const,
    })),
    diverged: false,
  };
}
