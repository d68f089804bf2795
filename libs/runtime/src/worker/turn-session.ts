import { metadataOf } from '@lomo/command-handling';
import { ConcurrencyError, type WriteMetadata } from '@lomo/contracts';
import { isTurnTerminal } from '@lomo/domain';
import { runtimeActor } from '../events/new-events';
import type { TaskAppend, TurnAppend } from '../process/runtime-output';
import type { LocalCallState } from '../process/plan-view';
import type { TaskView } from '../streams/task-view';
import type { TurnView } from '../streams/turn-view';
import type { RuntimeDeps } from './runtime-deps';

/** ok: appended and folded. conflict: refused, re-read, still ours: decide again. lost: stop. */
export type AppendOutcome = 'ok' | 'conflict' | 'lost';

/**
 * A worker's hold on one turn: both aggregates in memory, the revisions it last saw, and the
 * generation it leases. Every append uses the revision last seen (that is the fence); on a
 * refusal only the new events are read and folded, so a step costs the same at step 1 and 1 000.
 * Appends are serialized (lease renewals run concurrently with model calls), and each one is
 * decided inside the same critical section, so the worker never fences itself.
 */
export class TurnSession {
  generation = 0;
  readonly localCalls = new Map<string, LocalCallState>();
  /** Aborted when the task is stopped or the lease is lost: the model call and tools stop. */
  readonly cancelled = new AbortController();
  /** Aborted on shutdown too; only the model call listens to it (a running tool may finish). */
  modelCall: AbortController | undefined;
  shuttingDown = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: RuntimeDeps,
    readonly task: TaskView,
    readonly turn: TurnView,
    readonly workspaceId: string,
  ) {}

  get taskId(): string {
    return this.task.taskId;
  }

  get turnId(): string {
    return this.turn.turnId;
  }

  /** Runs `work` alone among this session's appends. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  abort(reason: string): void {
    if (!this.cancelled.signal.aborted) this.cancelled.abort(new Error(reason));
    this.modelCall?.abort(new Error(reason));
  }

  async appendTurn(output: TurnAppend): Promise<AppendOutcome> {
    if (output.events.length === 0) return 'ok';
    const step = this.stepOf(output);
    await this.deps.faults.at(this.faultContext(output, this.turn.streamId, step));
    try {
      // Decided at the revision last seen; the append expects exactly that revision (the fence).
      await this.turn.append(this.deps.store, output.events, this.metadata(), this.deps.ids, {
        expected: output.expected,
      });
      return 'ok';
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      await this.turn.catchUp(this.deps.store);
      return this.afterRefusal(error, output.intent, step);
    }
  }

  async appendTask(output: TaskAppend): Promise<AppendOutcome> {
    if (output.events.length === 0) return 'ok';
    await this.deps.faults.at(this.faultContext(output, this.task.streamId, this.stepOf(output)));
    const eventIds = output.eventIds;
    try {
      await this.task.append(this.deps.store, output.events, this.metadata(), this.deps.ids, {
        eventIdFor: eventIds === undefined ? undefined : (_, index) => eventIds[index],
        expected: output.expected,
      });
      return 'ok';
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      // The task stream is shared with the router and the person (messages, withdrawals):
      // a conflict there is ordinary, not a fence. Re-read and decide again.
      await this.task.catchUp(this.deps.store);
      // Closing an ended turn may be done by anyone; otherwise go on only while the turn is ours.
      const ended = isTurnTerminal(this.turn.state);
      const outcome = ended || this.generation === 0 || this.ownsTurn() ? 'conflict' : 'lost';
      this.deps.metrics.fencedWrites.inc({ stream: 'task', outcome: outcome === 'conflict' ? 'continued' : 'stopped' });
      return outcome;
    }
  }

  /** Still running under this worker's generation, as far as the events read so far say. */
  ownsTurn(): boolean {
    const turn = this.turn.state;
    return (
      turn.status === 'running' &&
      this.generation > 0 &&
      turn.generation === this.generation &&
      turn.lease?.workerId === this.deps.options.workerId
    );
  }

  /** The step a write is about: the one it commits or claims, else the last committed one (its calls). */
  private stepOf(output: TurnAppend | TaskAppend): number {
    for (const event of output.events) {
      if (event.type === 'ModelStepCommitted' || event.type === 'InboxItemsClaimed') return event.data.step;
    }
    return this.turn.state.status === 'none' ? 0 : this.turn.state.steps.length;
  }

  private afterRefusal(error: ConcurrencyError, intent: string, step: number): AppendOutcome {
    const continued = this.ownsTurn() || (this.generation === 0 && this.turn.state.status !== 'none');
    const context = {
      taskId: this.taskId,
      turnId: this.turnId,
      workspaceId: this.workspaceId,
      workerId: this.deps.options.workerId,
      generation: this.generation,
      currentGeneration: this.turn.state.status === 'none' ? 0 : this.turn.state.generation,
      turnStatus: this.turn.state.status,
      step,
      intent,
      expectedRevision: error.expected,
      actualRevision: error.actual,
    };
    this.deps.metrics.fencedWrites.inc({ stream: 'turn', outcome: continued ? 'continued' : 'stopped' });
    if (continued) this.deps.logger.info(context, 'turn append refused by the store; re-read, still ours');
    else this.deps.logger.warn(context, 'stale turn write refused by the store; this worker lost the turn and stops');
    return continued ? 'conflict' : 'lost';
  }

  private metadata(): WriteMetadata {
    return metadataOf({
      workspaceId: this.workspaceId,
      actor: runtimeActor,
      ...(this.generation > 0 ? { generation: this.generation } : {}),
      // One trace per turn when no request started it (timers, the watchdog).
      fallbackCorrelationId: this.turnId,
    });
  }

  private faultContext(output: TurnAppend | TaskAppend, streamId: string, step: number) {
    return {
      point: 'between-read-and-append' as const,
      workerId: this.deps.options.workerId,
      taskId: this.taskId,
      turnId: this.turnId,
      generation: this.generation,
      step,
      ...(output.stream === 'turn' && output.callId !== undefined ? { callId: output.callId } : {}),
      streamId,
      expectedRevision: output.expected,
      eventTypes: output.events.map((e) => e.type),
    };
  }
}
