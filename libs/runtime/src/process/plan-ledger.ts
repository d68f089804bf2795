import {
  openCheckpointFor,
  isRejected,
  isToolArmed,
  taskDecider,
  type ExistingTurn,
  type ToolCall,
} from '@lomo/domain';
import { decideAll } from '@lomo/command-handling';
import { callArgumentsHash } from './call-hash';
import { checkpointIdFor, checkpointOpenedEventIdFor } from './derived-ids';
import type { PlanView } from './plan-view';
import { turnAppend } from './turn-append';
import type { RuntimeOutput } from './runtime-output';

export { CALL_DECLINED } from '@lomo/domain';

/**
 * DESIGN.md §4 step 4d, for the calls of the last committed step, in index order: reuse a
 * recorded result; a call started without a result is retried only when its tool is idempotent
 * (same call id, same key), else its outcome is recorded as unknown; a paid or irreversible call
 * runs only with a recorded approval of that call id, else a checkpoint opens and the turn waits.
 * Async calls that answered "pending" are waited on together once nothing else can run.
 * Undefined: every call of the step is settled.
 */
export function planLedger(view: PlanView, turn: ExistingTurn): RuntimeOutput | undefined {
  const last = turn.steps.at(-1);
  if (last === undefined) return undefined;
  const pending: string[] = [];
  for (const call of last.calls) {
    const { callId } = call;
    if (call.status === 'completed' || call.status === 'unknown') continue;
    if (call.status === 'started') {
      const local = view.localCalls.get(callId);
      if (local === 'pending') {
        pending.push(callId);
        continue;
      }
      if (local === 'started') return { kind: 'runTool', callId };
      return planOrphan(view, call);
    }
    return planIntended(view, turn, call);
  }
  if (pending.length > 0)
    return turnAppend(view, 'wait', [
      { type: 'WaitTurn', generation: view.generation, on: { kind: 'calls', callIds: pending } },
    ]);
  return undefined;
}

/** Started by an earlier generation (or before a crash) and never finished. */
function planOrphan(view: PlanView, call: ToolCall): RuntimeOutput {
  if (view.traits(call.tool)?.idempotent === true)
    return turnAppend(
      view,
      'retry-call',
      [{ type: 'StartToolCall', generation: view.generation, callId: call.callId, attempt: call.attempts + 1 }],
      call.callId,
    );
  return turnAppend(view, 'record-unknown', [
    {
      type: 'RecordToolOutcomeUnknown',
      generation: view.generation,
      callId: call.callId,
      reason: 'started_without_result_not_idempotent',
    },
  ]);
}

/** An approval of this call id whose card showed other arguments: it authorizes nothing. */
function approvalMismatch(view: PlanView, call: ToolCall): boolean {
  const approval = view.task.approvals[call.callId];
  if (approval?.decision !== 'approve') return false;
  const shown = view.task.checkpoints[approval.checkpointId]?.argumentsHash ?? null;
  return shown !== null && shown !== callArgumentsHash(call.tool, call.arguments);
}

export const TOOL_NOT_VISIBLE = 'TOOL_NOT_VISIBLE';

/**
 * Visibility never grants execution, and invisibility is enforced (article §6.2): a call to a tool
 * whose domain the committing step could not call is refused, whatever the endpoint let through.
 */
function invisible(view: PlanView, turn: ExistingTurn, call: ToolCall): string | undefined {
  const domains = turn.steps[call.step - 1]?.context?.tools.domains;
  const domain = view.traits(call.tool)?.domain;
  if (domains === undefined || domain === undefined || (domains as readonly string[]).includes(domain))
    return undefined;
  return domain;
}

export const TOOL_STUBBED_IN_FORK = 'TOOL_STUBBED_IN_FORK';

/**
 * Issue 20: a fork's tools do nothing until an operator arms them (ToolsArmed). The call is ended
 * with an error result the model reads, before authorization: no tool runs, no checkpoint opens, no
 * paid job is ordered.
 */
function stubbedInFork(view: PlanView, call: ToolCall): RuntimeOutput | undefined {
  if (isToolArmed(view.task, call.tool)) return undefined;
  return turnAppend(view, 'decline-call', [
    {
      type: 'DeclineToolCall',
      generation: view.generation,
      callId: call.callId,
      code: TOOL_STUBBED_IN_FORK,
      message: `${call.tool} was not run: this task is a fork of task ${view.task.fork?.sourceTaskId ?? '?'} and its tools are stubbed until an operator arms them. Nothing was done.`,
    },
  ]);
}

function planIntended(view: PlanView, turn: ExistingTurn, call: ToolCall): RuntimeOutput {
  const stubbed = stubbedInFork(view, call);
  if (stubbed !== undefined) return stubbed;
  const hidden = invisible(view, turn, call);
  if (hidden !== undefined)
    return turnAppend(view, 'decline-call', [
      {
        type: 'DeclineToolCall',
        generation: view.generation,
        callId: call.callId,
        code: TOOL_NOT_VISIBLE,
        message: `${call.tool} is in the ${hidden} domain, which was not loaded at that step: call tools.load with "${hidden}" first. Nothing was run.`,
      },
    ]);
  if (approvalMismatch(view, call))
    return turnAppend(view, 'decline-call', [
      {
        type: 'DeclineToolCall',
        generation: view.generation,
        callId: call.callId,
        message: 'The approval on record was for other arguments than this call holds; it was not run.',
      },
    ]);
  const authorization = view.authorize(call.tool, call.callId);
  if (authorization.decision === 'allowed')
    return turnAppend(
      view,
      'start-call',
      [{ type: 'StartToolCall', generation: view.generation, callId: call.callId, attempt: 1 }],
      call.callId,
    );
  if (isRejected(view.task, call.callId)) {
    // A declined call never runs: its ledger entry goes from intended straight to an error result.
    return turnAppend(view, 'decline-call', [
      {
        type: 'DeclineToolCall',
        generation: view.generation,
        callId: call.callId,
        message: 'The person declined this call; it was not run.',
      },
    ]);
  }
  const open = openCheckpointFor(view.task, call.callId);
  if (open === undefined) {
    return {
      kind: 'append',
      stream: 'task',
      intent: 'open-checkpoint',
      events: decideAll(taskDecider, view.task, [
        {
          type: 'OpenCheckpoint',
          checkpointId: checkpointIdFor(call.callId),
          turnId: view.turnId,
          kind: 'approval',
          callId: call.callId,
          question: authorization.question,
          argumentsHash: callArgumentsHash(call.tool, call.arguments),
        },
      ]),
      expected: view.taskRevision,
      eventIds: [checkpointOpenedEventIdFor(call.callId)],
    };
  }
  return turnAppend(view, 'wait', [
    { type: 'WaitTurn', generation: view.generation, on: { kind: 'checkpoint', checkpointId: open.checkpointId } },
  ]);
}
