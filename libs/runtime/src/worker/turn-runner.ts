import { traceHeaders } from '@lomo/observability';
import { WAKE_UP_TOPIC, wakeUpMessage } from '@lomo/contracts';
import { DomainError, existingTurn, isTurnTerminal, lastStep, type WakeReason } from '@lomo/domain';
import type { FaultPoint } from '../faults/fault-injector';
import type { ToolCallStatus } from '../metrics/runtime-metrics';
import { planTurn } from '../process/plan-turn';
import { turnAppend } from '../process/turn-append';
import type { FinishReason, RuntimeOutput } from '../process/runtime-output';
import type { HeldTurns } from './held-turns';
import type { ModelStep } from './model-step';
import { planViewOf } from './plan-view-of';
import type { RuntimeDeps } from './runtime-deps';
import type { ToolStep } from './tool-step';
import type { AppendOutcome, TurnSession } from './turn-session';

/** Consecutive refusals by the domain after re-reading: something else owns the turn now. */
const MAX_REFUSALS = 3;

const faultAfter: Partial<Record<string, FaultPoint>> = {
  'take-lease': 'after-lease-taken',
  claim: 'after-claim',
  'start-call': 'after-tool-started',
  'retry-call': 'after-tool-started',
};

/** Ledger outcomes decided without running the tool; run outcomes are counted by ToolStep. */
const ledgerStatus: Partial<Record<string, ToolCallStatus>> = {
  'record-unknown': 'unknown',
  'open-checkpoint': 'needs_approval',
  'decline-call': 'rejected',
  'retry-call': 'retried',
};

/**
 * The thin imperative shell around the coordinating decider: ask `planTurn` what to do, do it,
 * repeat. Planning and the append it decides happen in one critical section of the session, so
 * the expected revision is always the one just seen. Long work (model, tool) runs outside it.
 */
export class TurnRunner {
  private renewal: (() => void) | undefined;

  constructor(
    private readonly deps: RuntimeDeps,
    private readonly session: TurnSession,
    private readonly wake: WakeReason,
    private readonly held: HeldTurns,
    private readonly modelStep: ModelStep,
    private readonly toolStep: ToolStep,
  ) {}

  async run(): Promise<FinishReason> {
    const { session } = this;
    let refusals = 0;
    try {
      for (;;) {
        if (session.cancelled.signal.aborted) return 'cancelled';
        if (session.shuttingDown) return await this.release();
        let output: RuntimeOutput;
        let appended: AppendOutcome | undefined;
        try {
          ({ output, appended } = await session.exclusive(() => this.planAndAppend()));
          refusals = 0;
        } catch (error) {
          if (!(error instanceof DomainError) || ++refusals > MAX_REFUSALS) throw error;
          // Decided on a state that moved: read what is new and decide again.
          this.log('debug', { code: error.code, message: error.message }, 'domain refused; re-reading');
          await session.turn.catchUp(this.deps.store);
          await session.task.catchUp(this.deps.store);
          continue;
        }
        if (output.kind === 'finish') return output.reason;
        if (output.kind === 'append') {
          if (appended === 'lost') return 'lease-lost';
          if (appended === 'ok')
            await this.afterAppend(output.intent, output.stream === 'turn' ? output.callId : undefined);
          continue;
        }
        const outcome =
          output.kind === 'callModel'
            ? await this.modelStep.run(session, output.step, output.claimedItemIds, this.wake)
            : await this.toolStep.run(session, output.callId, this.wake);
        if (outcome === 'lost') return 'lease-lost';
      }
    } finally {
      this.renewal?.();
      this.held.remove(session);
    }
  }

  private async planAndAppend(): Promise<{ output: RuntimeOutput; appended?: AppendOutcome }> {
    const { session, deps } = this;
    // New inbox items matter only at a step boundary: read the task's new events there.
    if (atStepBoundary(session)) await session.task.catchUp(deps.store);
    // A turn's close may open the plan's budget card: its quote reads the workspace's account.
    if (deps.planQuoter?.prepare !== undefined && isTurnTerminal(session.turn.state))
      await deps.planQuoter.prepare(session.workspaceId);
    const output = planTurn(planViewOf(deps, session, this.wake));
    if (output.kind !== 'append') return { output };
    const appended = output.stream === 'turn' ? await session.appendTurn(output) : await session.appendTask(output);
    if (appended === 'ok' && output.intent === 'take-lease') this.holdLease();
    return { output, appended };
  }

  private holdLease(): void {
    const { session, deps } = this;
    const turn = existingTurn(session.turn.state);
    session.generation = turn.generation;
    this.held.add(session);
    this.renewal?.();
    this.renewal = deps.scheduler.every(`renew:${session.turnId}`, deps.options.renewEveryMs, () => this.renew());
    this.log('info', {}, 'turn lease taken');
  }

  private async afterAppend(intent: string, callId: string | undefined): Promise<void> {
    if (callId !== undefined && (intent === 'start-call' || intent === 'retry-call')) {
      this.session.localCalls.set(callId, 'started');
    }
    const status = ledgerStatus[intent];
    if (status !== undefined) this.deps.metrics.toolCalls.inc({ status });
    const point = faultAfter[intent];
    if (point === undefined) return;
    const turn = this.session.turn.state;
    await this.deps.faults.at({
      point,
      workerId: this.deps.options.workerId,
      taskId: this.session.taskId,
      turnId: this.session.turnId,
      generation: this.session.generation,
      step: turn.status === 'none' ? 0 : turn.steps.length,
      ...(callId !== undefined ? { callId } : {}),
    });
  }

  /** The lease timer: a renewal the store refuses means another worker took over, so stop. */
  private async renew(): Promise<void> {
    const { session, deps } = this;
    try {
      const outcome = await session.exclusive(async () => {
        if (!session.ownsTurn()) return 'lost' as const;
        return session.appendTurn(
          turnAppend(planViewOf(deps, session, this.wake), 'renew-lease', [
            {
              type: 'RenewLease',
              workerId: deps.options.workerId,
              generation: session.generation,
              now: deps.clock.now().toISOString(),
              leaseMs: deps.options.leaseMs,
            },
          ]),
        );
      });
      if (outcome === 'lost') {
        this.renewal?.();
        session.abort('lease lost');
      }
    } catch (error) {
      this.log('warn', { error: error instanceof Error ? error.message : String(error) }, 'lease renewal failed');
    }
  }

  /** SIGTERM: end the lease now and wake the task, so another executor takes over at once. */
  private async release(): Promise<FinishReason> {
    const { session, deps } = this;
    const released = await session.exclusive(async () => {
      if (!session.ownsTurn()) return false;
      const outcome = await session.appendTurn(
        turnAppend(planViewOf(deps, session, this.wake), 'release-lease', [
          {
            type: 'ReleaseLease',
            workerId: deps.options.workerId,
            generation: session.generation,
            now: deps.clock.now().toISOString(),
          },
        ]),
      );
      return outcome === 'ok';
    });
    if (released) {
      this.log('info', {}, 'turn lease released for shutdown');
      const message = wakeUpMessage.parse({
        kind: 'wake',
        workspaceId: session.workspaceId,
        taskId: session.taskId,
        turnId: session.turnId,
        reason: 'resume',
      });
      await deps.bus
        .publish(WAKE_UP_TOPIC, [{ key: session.taskId, value: message, headers: traceHeaders() }])
        .catch((error: unknown) =>
          // The watchdog of another executor finds the released lease anyway.
          this.log(
            'warn',
            { error: error instanceof Error ? error.message : String(error) },
            'wake after release not published',
          ),
        );
    }
    return 'released';
  }

  private log(level: 'debug' | 'info' | 'warn', context: Record<string, unknown>, message: string): void {
    const { session } = this;
    const turn = session.turn.state;
    this.deps.logger[level](
      {
        taskId: session.taskId,
        turnId: session.turnId,
        workerId: this.deps.options.workerId,
        generation: session.generation,
        step: turn.status === 'none' ? 0 : turn.steps.length,
        ...context,
      },
      message,
    );
  }
}

/** No step yet, or every call of the last step has an outcome: the next decision is about a new step. */
function atStepBoundary(session: TurnSession): boolean {
  const turn = session.turn.state;
  if (turn.status !== 'running') return false;
  const last = lastStep(turn);
  return last === undefined || last.calls.every((c) => c.status === 'completed' || c.status === 'unknown');
}
