import { canonicalJson } from '@lomo/contracts';
import {
  isPurged,
  type CallDiff,
  type ContextCheck,
  type ReplayedStep as StepShape,
  type ReplayReport as ReportShape,
} from '@lomo/operator';
import type { InspectedText } from '../types/operator-inspection.types';
import type {
  ReplayCallDiff,
  ReplayCallOutcome,
  ReplayContextCheck,
  ReplayedStep,
  ReplayReport,
} from '../types/operator-replay.types';
import { mapText } from './map-inspection';

/** Arguments as canonical JSON text, or purged (never the value then); null when there are none. */
function mapArguments(value: unknown): InspectedText | null {
  if (value === null || value === undefined) return null;
  if (isPurged(value)) return mapText(value);
  return { text: canonicalJson(value), purged: false, purgedReason: null };
}

function mapContext(context: ContextCheck | null): ReplayContextCheck | null {
  if (context === null) return null;
  switch (context.status) {
    case 'reproduced':
      return { status: 'reproduced', rebuiltHash: context.hash, storedHash: context.hash, firstDifferingLayer: null };
    case 'context_drift':
      return {
        status: 'context_drift',
        rebuiltHash: context.rebuiltHash,
        storedHash: context.storedHash,
        firstDifferingLayer: context.firstDifferingLayer,
      };
    case 'stored_prompt_missing':
      return {
        status: 'stored_prompt_missing',
        rebuiltHash: context.rebuiltHash,
        storedHash: null,
        firstDifferingLayer: null,
      };
  }
}

/** The outcome a call reuses; a forgotten step's is purged (hideRecorded), never shown. */
function mapOutcome(outcome: CallDiff['outcome'] | unknown): ReplayCallOutcome | null {
  if (outcome === undefined || outcome === null) return null;
  if (isPurged(outcome))
    return { status: null, resultJson: null, reason: null, job: null, purged: true, purgedReason: outcome.reason };
  const o = outcome as NonNullable<CallDiff['outcome']>;
  return {
    status: o.status,
    resultJson: o.status === 'unknown' ? null : canonicalJson(o.result ?? null),
    reason: o.status === 'unknown' ? o.reason : null,
    job: o.job === undefined ? null : { ...o.job },
    purged: false,
    purgedReason: null,
  };
}

function mapCall(call: CallDiff): ReplayCallDiff {
  return {
    callId: call.callId,
    tool: call.tool,
    recordedArguments: mapArguments(call.recorded),
    replayedArguments: mapArguments(call.replayed),
    status: call.status,
    outcome: mapOutcome(call.outcome),
  };
}

export function mapReplayedStep(step: StepShape): ReplayedStep {
  return {
    step: step.step,
    status: step.status,
    error: step.error === undefined ? null : { code: step.error.code, message: step.error.message },
    context: mapContext(step.context),
    forgotten: { flagged: step.forgotten.flagged, reason: step.forgotten.reason },
    concurrent: step.concurrent.map((c) => ({ type: c.type, at: c.at })),
    patched: [...step.patched],
    reply: {
      recorded: mapText(step.reply.recorded),
      replayed: step.reply.replayed === null ? null : mapText(step.reply.replayed),
      equal: step.reply.equal,
    },
    toolCalls: step.toolCalls.map(mapCall),
    diverged: step.diverged,
  };
}

export function mapReplayReport(report: ReportShape): ReplayReport {
  return {
    turnId: report.turnId,
    taskId: report.taskId,
    workspaceId: report.workspaceId,
    model: report.model,
    steps: report.steps.map(mapReplayedStep),
    divergedAt: report.divergedAt,
    driftAt: report.driftAt,
  };
}
