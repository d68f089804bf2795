import { ConcurrencyError } from '@lomo/contracts';
import { DomainError, isRunnable, taskDecider, unclaimedItems, type WakeReason } from '@lomo/domain';
import { ContextAssembler } from '../context/context-assembler';
import { PromptArchive } from '../context/prompt-archive';
import { metadataOf } from '@lomo/command-handling';
import { runtimeActor } from '../events/new-events';
import type { FinishReason } from '../process/runtime-output';
import { TaskView } from '../streams/task-view';
import { publishWakeUp } from '../wakeups/publish-wake-up';
import { TurnView } from '../streams/turn-view';
import { HeldTurns } from './held-turns';
import { ModelStep } from './model-step';
import type { RuntimeDeps } from './runtime-deps';
import { ToolStep } from './tool-step';
import { summarizeAfterTurn } from '../summary/summarize-after-turn';
import { TurnRunner } from './turn-runner';
import { TurnSession } from './turn-session';

export interface WakeRequest {
  taskId: string;
  reason: WakeReason;
}

/** Turns run back to back for one wake: enough for a follow-up message, bounded against loops. */
const MAX_TURNS_PER_WAKE = 5;

interface TaskRun {
  again: boolean;
  done: Promise<void>;
}

/**
 * Where wake-ups land. A wake says "look at this task again": the worker re-reads the task and
 * opens a turn for unread messages, resumes a waiting turn whose wait is over, takes over a turn
 * whose lease expired, or finishes closing a turn that ended. Duplicates are harmless: one run
 * per task at a time in this process, and across processes the turn lease decides.
 */
export class TaskWorker {
  readonly held = new HeldTurns();
  private readonly runs = new Map<string, TaskRun>();
  private readonly modelStep: ModelStep;
  private readonly toolStep: ToolStep;
  private stopping = false;

  constructor(private readonly deps: RuntimeDeps) {
    const archive = new PromptArchive(deps.blobs);
    this.modelStep = new ModelStep(deps, new ContextAssembler(deps), archive);
    this.toolStep = new ToolStep(deps);
  }

  /** Resolves when this wake (and any that arrived during it) has been handled. */
  wake(request: WakeRequest): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const current = this.runs.get(request.taskId);
    if (current !== undefined) {
      current.again = true;
      return current.done;
    }
    const run: TaskRun = { again: false, done: Promise.resolve() };
    run.done = this.drain(request, run).finally(() => this.runs.delete(request.taskId));
    this.runs.set(request.taskId, run);
    return run.done;
  }

  /** Aborts the model call of a turn this process holds (a stopped task). */
  cancel(turnId: string, reason: string): boolean {
    return this.held.cancel(turnId, reason);
  }

  /** Waits until no task is being worked on in this process. */
  async idle(): Promise<void> {
    while (this.runs.size > 0) await Promise.all([...this.runs.values()].map((r) => r.done));
  }

  /** SIGTERM: take no new work, release every held lease at the next boundary, wait for that. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    this.held.shutDownAll();
    await this.idle();
  }

  get activeTurns(): number {
    return this.held.size;
  }

  private async drain(request: WakeRequest, run: TaskRun): Promise<void> {
    do {
      run.again = false;
      try {
        await this.handle(request);
      } catch (error) {
        this.deps.logger.error(
          {
            taskId: request.taskId,
            reason: request.reason,
            error: error instanceof Error ? error.stack : String(error),
          },
          'wake-up handling failed; the watchdog will look again',
        );
      }
    } while (run.again && !this.stopping);
  }

  private async handle(request: WakeRequest): Promise<void> {
    for (let turns = 0; turns < MAX_TURNS_PER_WAKE && !this.stopping; turns += 1) {
      const task = await TaskView.load(this.deps.store, request.taskId);
      const existing = task.existing;
      if (existing === undefined || task.workspaceId === undefined) return;
      let turnId = existing.activeTurnId ?? undefined;
      let wakeReason = request.reason;
      if (turnId === undefined) {
        if (!isRunnable(existing)) return;
        // Unread messages first; else the turn owed: the runtime's own decision to go on
        // (plan-continuation.ts), or the person's answer to a card whose turn had closed.
        const reason: WakeReason | undefined =
          unclaimedItems(existing).length > 0
            ? request.reason
            : existing.continuation?.pending === true
              ? existing.continuation.pendingBy === 'person'
                ? 'approval'
                : 'continuation'
              : undefined;
        if (reason === undefined) return;
        wakeReason = reason;
        turnId = await this.openTurn(task, task.workspaceId, reason);
        if (turnId === undefined) continue;
      }
      const turn = await TurnView.load(this.deps.store, turnId);
      const session = new TurnSession(this.deps, task, turn, task.workspaceId);
      const finished: FinishReason = await new TurnRunner(
        this.deps,
        session,
        wakeReason,
        this.held,
        this.modelStep,
        this.toolStep,
      ).run();
      this.deps.logger.info({ taskId: request.taskId, turnId, reason: finished }, 'turn run ended');
      await summarizeAfterTurn(this.deps, session, finished);
      // Only a completed turn goes straight on to unread messages; after a failure the watchdog
      // retries later, so a broken model does not spin.
      if (finished !== 'completed') return;
    }
    await this.handOnContinuation(request.taskId);
  }

  /**
   * A wake runs at most MAX_TURNS_PER_WAKE turns, so one busy task does not hold the worker; a
   * continuation still pending then goes back on the wake-up topic, behind other tasks' wakes.
   */
  private async handOnContinuation(taskId: string): Promise<void> {
    if (this.stopping) return;
    const task = await TaskView.load(this.deps.store, taskId);
    const existing = task.existing;
    if (existing === undefined || task.workspaceId === undefined || existing.activeTurnId !== null) return;
    if (!isRunnable(existing) || existing.continuation?.pending !== true) return;
    await publishWakeUp(this.deps.bus, {
      kind: 'wake',
      workspaceId: task.workspaceId,
      taskId,
      reason: existing.continuation.pendingBy === 'person' ? 'approval' : 'continuation',
    });
  }

  /** The task's one active turn, decided by the task stream's expected revision. */
  private async openTurn(task: TaskView, workspaceId: string, reason: WakeReason): Promise<string | undefined> {
    const turnId = this.deps.ids.uuid();
    try {
      const events = taskDecider.decide({ type: 'OpenTurn', turnId, reason }, task.state);
      const metadata = metadataOf({ workspaceId, actor: runtimeActor, fallbackCorrelationId: turnId });
      await task.append(this.deps.store, events, metadata, this.deps.ids);
      return turnId;
    } catch (error) {
      // Another worker opened one first, or the task changed: read again.
      if (error instanceof ConcurrencyError || error instanceof DomainError) return undefined;
      throw error;
    }
  }
}
