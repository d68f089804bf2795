import { toolCall, type CompleteToolCall, type WakeReason } from '@lomo/domain';
import { PAGE_CHARS, type ToolResult } from '@lomo/tools';
import { turnAppend } from '../process/turn-append';
import { summarizeLargeResult } from '../tools/result-summary';
import type { AppendOutcome, TurnSession } from './turn-session';
import type { RuntimeDeps } from './runtime-deps';
import { planViewOf } from './plan-view-of';

export type ToolStepOutcome = AppendOutcome | 'pending' | 'abandoned';

const RESULT_TYPE = 'application/json';
const RECORD_ATTEMPTS = 3;

/**
 * Runs one call this worker has just recorded as started, then records its result. The key is
 * the call id. A pending (async) result is remembered locally; the turn waits on it once the
 * step has nothing else to run. An aborted run records nothing: whoever continues the turn
 * decides from the ledger (started without a result).
 */
export class ToolStep {
  constructor(private readonly deps: RuntimeDeps) {}

  async run(session: TurnSession, callId: string, wake: WakeReason): Promise<ToolStepOutcome> {
    const { deps } = this;
    const call = toolCall(session.turn.state, callId);
    if (call === undefined) throw new Error(`Turn ${session.turnId} has no call ${callId}`);
    const result = await deps.tools.invoke(call.tool, call.arguments, {
      workspaceId: session.workspaceId,
      taskId: session.taskId,
      turnId: session.turnId,
      step: call.step,
      callId,
      idempotencyKey: callId,
      signal: session.cancelled.signal,
      clock: deps.clock,
      correlationId: session.turnId,
    });
    await deps.faults.at({
      point: 'after-tool-ran-before-completion',
      workerId: deps.options.workerId,
      taskId: session.taskId,
      turnId: session.turnId,
      generation: session.generation,
      step: call.step,
      callId,
    });
    if (session.cancelled.signal.aborted) return 'abandoned';
    if (result.status === 'pending') {
      session.localCalls.set(callId, 'pending');
      deps.metrics.toolCalls.inc({ status: 'pending' });
      return 'pending';
    }
    const completion = await this.completionOf(call.tool, callId, result);
    let outcome: AppendOutcome = 'conflict';
    // A conflict we survive is another writer's append (an async completion): decide again, never re-run.
    for (let attempt = 1; outcome === 'conflict' && attempt <= RECORD_ATTEMPTS; attempt += 1) {
      outcome = await session.exclusive(() =>
        session.appendTurn(turnAppend(planViewOf(deps, session, wake), 'record-result', [completion], callId)),
      );
    }
    // Not running it again from here: if the result is not recorded, the ledger's rule for a
    // call started without a result applies to whoever continues.
    session.localCalls.delete(callId);
    if (outcome === 'ok') deps.metrics.toolCalls.inc({ status: result.status });
    return outcome;
  }

  /**
   * Small results inline; large ones in the BlobStore, recorded as a summary of their shape that
   * names the ref result.read pages through (tools/result-summary.ts). A page such a read returns
   * is recorded inline whatever its size: stored again, it could only be summarized again.
   */
  private async completionOf(
    tool: string,
    callId: string,
    result: Exclude<ToolResult, { status: 'pending' }>,
  ): Promise<CompleteToolCall> {
    if (result.status === 'error') return { type: 'CompleteToolCall', callId, status: 'error', error: result.error };
    const json = JSON.stringify(result.output);
    const inline =
      this.deps.tools.get(tool)?.returnsPage === true ||
      Buffer.byteLength(json, 'utf8') <= this.deps.options.maxInlineResultBytes;
    if (inline) return { type: 'CompleteToolCall', callId, status: 'ok', result: result.output };
    const resultRef = await this.deps.blobs.put(json, RESULT_TYPE);
    const summary = summarizeLargeResult(json, resultRef.hash, PAGE_CHARS.default);
    return { type: 'CompleteToolCall', callId, status: 'ok', result: summary, resultRef };
  }
}
