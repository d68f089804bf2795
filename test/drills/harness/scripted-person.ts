import type { DrillTarget } from './drill-app';
import { DrillClient } from './drill-client';
import {
  CONFIRM_FORGETTING,
  CORRECT_MEMORY,
  DOCUMENT,
  EDIT_DOCUMENT,
  EDIT_FLOW_NODES,
  FLOW,
  FORGET_MEMORY,
  FORGETTING,
  MEMORIES,
  MESSAGE_ROUTING,
  RESOLVE_CHECKPOINT,
  SEND_MESSAGE,
  SEND_MESSAGE_TO_TASK,
  STOP_TASK,
  TASK_ARTIFACTS,
  TASK_STATE,
  type ArtifactRow,
  type TaskState,
} from './queries';
import { CRASH_POINTS, durationMs, type DrillScenario, type DrillStep } from './scenario-schema';
import { advanceClock, setFaults, type ClockAdvance } from './test-control';

/** A step the app would not let the person do, or a state that never came: the scenario cannot complete. */
export class DrillStepError extends Error {
  constructor(
    readonly stepIndex: number,
    readonly step: DrillStep,
    cause: unknown,
  ) {
    super(`step ${stepIndex + 1} ${JSON.stringify(step)}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'DrillStepError';
  }
}

const DEFAULT_WAIT_MS = 120_000;

/** One crash the app did by itself at the crash point a step armed, and its restart. */
export interface AppCrash {
  point: keyof typeof CRASH_POINTS;
  /** The step that waited for it (1-based). */
  step: number;
  signal: string | null;
  /** When the restart step began (ms since the drill started), and from then to the app answering again (the wait for the crash included). */
  atMs: number;
  downMs: number;
}

/** Plays a scenario's person against the running app, through the public API only. */
export class ScriptedPerson {
  /** Scenario task name → task id, as routing decided for the message that opened it. */
  readonly tasks = new Map<string, string>();
  /** clientMessageId → intended target: the misroute metric's ground truth. */
  readonly intendedTargets = new Map<string, { new: string } | { task: string }>();
  readonly clock: ClockAdvance[] = [];
  /** Crashes the app did at an armed crash point (`arm_crash`, then `restart: crashed`). */
  readonly crashes: AppCrash[] = [];
  /** Feed position of the person's last action per task: waits look for the agent's answer after it. */
  private readonly lastActionAt = new Map<string, number>();
  readonly log: Array<{ step: number; what: string; atMs: number }> = [];
  private readonly started = Date.now();
  private armedCrash: keyof typeof CRASH_POINTS | undefined;

  constructor(
    private readonly scenario: DrillScenario,
    private readonly app: DrillTarget,
    readonly client: DrillClient,
    private readonly operatorToken: string,
  ) {}

  async play(): Promise<void> {
    for (const [i, step] of this.scenario.person.entries()) {
      try {
        await this.perform(i, step);
      } catch (error) {
        throw new DrillStepError(i, step, error);
      }
      this.log.push({ step: i + 1, what: Object.keys(step)[0], atMs: Date.now() - this.started });
    }
  }

  private taskId(name: string): string {
    const id = this.tasks.get(name);
    if (id === undefined) throw new Error(`task "${name}" was never opened (its message did not open a task)`);
    return id;
  }

  /** `at`: the feed's length when the action's request went out (the agent's answer can reach the feed before the request's own reads do). */
  private acted(name: string, at = this.client.feed.length): void {
    this.lastActionAt.set(name, at);
  }

  /** The token of the person's last card decision per task id: the task is read consistent with it. */
  private readonly consistentWith = new Map<string, string>();

  /**
   * The task's read model; null while it does not show the task yet: the routing that named it is
   * another read model, and on the distributed apps the two are projected apart (waits read again).
   */
  private readTask = (id: string) => async () =>
    (
      await this.client.request<{ task: TaskState | null }>(TASK_STATE, {
        id,
        consistentWith: this.consistentWith.get(id) ?? null,
      })
    ).task;

  private async perform(i: number, step: DrillStep): Promise<void> {
    if ('say' in step) {
      const { text, target } = step.say;
      const clientMessageId = step.say.clientMessageId ?? `${this.scenario.name}-${i + 1}`;
      if (!('main' in target)) this.intendedTargets.set(clientMessageId, target);
      const at = this.client.feed.length;
      const sent = await this.client.request<{ sendMessage: { messageId: string } }>(SEND_MESSAGE, {
        text,
        client: clientMessageId,
      });
      const routed = await this.client.until(
        `routing of "${text.slice(0, 60)}"`,
        () =>
          this.client.request<{ message: { routing: { taskId: string | null; outcome: string } | null } | null }>(
            MESSAGE_ROUTING,
            { id: sent.sendMessage.messageId },
          ),
        (r) => r.message?.routing != null,
        30_000,
      );
      const routing = routed.message!.routing!;
      if ('main' in target) {
        // Main's own message: a task taking it is a misroute the metric cannot see (no task name).
        if (routing.taskId !== null)
          throw new Error(`"${text.slice(0, 60)}" was meant for Main, routed ${routing.outcome} to a task`);
        return;
      }
      const name = 'new' in target ? target.new : target.task;
      // The person goes on with the task the message reached; a miss is the metric's to count.
      if (routing.taskId === null)
        throw new Error(`"${text.slice(0, 60)}" was routed ${routing.outcome} with no task (meant for "${name}")`);
      if ('new' in target) this.tasks.set(name, routing.taskId);
      this.acted(name, at);
      return;
    }
    if ('wait' in step) return this.waitFor(step.wait);
    if ('approve' in step || 'adjust' in step) {
      const { task, card } = 'approve' in step ? step.approve : step.adjust;
      const id = this.taskId(task);
      const state = (await this.client.until(`"${task}" shown`, this.readTask(id), (t) => t !== null))!;
      const match = state.pendingCheckpoints.find(
        (c) =>
          (card.kind === undefined || c.kind === card.kind) &&
          (card.item === undefined || c.itemId === card.item) &&
          (card.question_contains === undefined ||
            c.question.toLowerCase().includes(card.question_contains.toLowerCase())),
      );
      if (match === undefined)
        throw new Error(
          `no open card of "${task}" matches ${JSON.stringify(card)}; open: ${JSON.stringify(state.pendingCheckpoints)}`,
        );
      const at = this.client.feed.length;
      const resolved = await this.client.request<{ resolveCheckpoint: { consistencyToken: string } }>(
        RESOLVE_CHECKPOINT,
        {
          t: id,
          c: match.checkpointId,
          d: 'approve' in step ? 'APPROVE' : 'ADJUST',
          note: 'adjust' in step ? step.adjust.note : null,
        },
      );
      // Later reads of the task show this decision: a card just resolved is never taken for open
      // (the distributed apps' read models trail the log by a projection).
      this.consistentWith.set(id, resolved.resolveCheckpoint.consistencyToken);
      this.acted(task, at);
      return;
    }
    if ('edit_artifact' in step) {
      const { task, title, change } = step.edit_artifact;
      const artifact = await this.latestArtifact(task, title, 'DOCUMENT');
      const doc = await this.client.request<{ artifact: { document: { text: string; version: number } } }>(DOCUMENT, {
        id: artifact.id,
      });
      const { text, version } = doc.artifact.document;
      let content: string;
      if ('append' in change) content = `${text.trimEnd()}\n\n${change.append}\n`;
      else {
        if (!text.includes(change.replace.from))
          throw new Error(`"${artifact.title}" does not contain "${change.replace.from}"`);
        content = text.replace(change.replace.from, change.replace.to);
      }
      await this.client.request(EDIT_DOCUMENT, { id: artifact.id, base: version, content });
      this.acted(task);
      return;
    }
    if ('edit_flow' in step) {
      const { task, title, node, params } = step.edit_flow;
      const artifact = await this.latestArtifact(task, title, 'FLOW');
      const flow = await this.client.request<{
        artifact: { flow: { version: number; nodes: Array<{ nodeId: string; version: number; paramsJson: string }> } };
      }>(FLOW, { id: artifact.id });
      const target = flow.artifact.flow.nodes.find((n) => n.nodeId === node);
      if (target === undefined)
        throw new Error(
          `flow "${artifact.title}" has no node ${node}: ${flow.artifact.flow.nodes.map((n) => n.nodeId).join(', ')}`,
        );
      const merged = { ...(JSON.parse(target.paramsJson) as Record<string, unknown>), ...params };
      await this.client.request(EDIT_FLOW_NODES, {
        id: artifact.id,
        base: flow.artifact.flow.version,
        edits: [{ nodeId: node, baseNodeVersion: target.version, paramsJson: JSON.stringify(merged) }],
      });
      this.acted(task);
      return;
    }
    if ('switch_to' in step) {
      // Opening the task's view: the person reads it (what a frontend does on a switch).
      await this.readTask(this.taskId(step.switch_to))();
      return;
    }
    if ('advance_clock' in step) {
      this.clock.push(await advanceClock(this.app.url, this.operatorToken, durationMs(step.advance_clock)));
      return;
    }
    if ('forget' in step) {
      const memory = await this.memoryMatching(step.forget.memory_matching);
      const asked = await this.client.request<{ forgetMemory: { forgetting: { id: string } } }>(FORGET_MEMORY, {
        id: memory.id,
        key: `${this.scenario.name}-${i + 1}`,
      });
      const forgettingId = asked.forgetMemory.forgetting.id;
      await this.client.request(CONFIRM_FORGETTING, { id: forgettingId });
      await this.client.until(
        `forgetting of "${step.forget.memory_matching}" completed`,
        // Null until the forgetting's read model shows it (the distributed apps project it apart).
        () => this.client.request<{ forgetting: { status: string } | null }>(FORGETTING, { id: forgettingId }),
        (r) => r.forgetting?.status === 'COMPLETED',
        60_000,
      );
      return;
    }
    if ('correct' in step) {
      const memory = await this.memoryMatching(step.correct.memory_matching);
      await this.client.request(CORRECT_MEMORY, {
        id: memory.id,
        text: step.correct.text,
        value: step.correct.value ?? null,
        key: `${this.scenario.name}-${i + 1}`,
      });
      return;
    }
    if ('stop_task' in step) {
      await this.client.request(STOP_TASK, { id: this.taskId(step.stop_task) });
      this.acted(step.stop_task);
      return;
    }
    if ('arm_crash' in step) {
      const key = CRASH_POINTS[step.arm_crash];
      const faults = await setFaults(this.app.url, this.operatorToken, { [key]: true });
      if (faults[key] !== true) throw new Error(`the app did not arm ${key}: ${JSON.stringify(faults)}`);
      this.armedCrash = step.arm_crash;
      return;
    }
    if ('restart' in step) {
      const atMs = Date.now() - this.started;
      const exit = await this.app.restart(step.restart);
      if (step.restart === 'crashed')
        this.crashes.push({
          point: this.armedCrash!,
          step: i + 1,
          signal: exit.signal,
          atMs,
          downMs: Date.now() - this.started - atMs,
        });
      await this.client.reconnect(this.app.url);
      return;
    }
    if ('nudge_if_stalled' in step) return this.nudgeIfStalled(i, step.nudge_if_stalled);
    const unreachable: never = step;
    throw new Error(`unknown step ${JSON.stringify(unreachable)}`);
  }

  /**
   * Waits until the agent has answered the person's last action on the task and no turn of the
   * runtime's own is coming (a card is open, or the last continuation is not `continue`); if the
   * task then sits with work left and nothing asking the person, types `text` into the task's
   * own view (the message names its task) and waits again, `max` times at most.
   */
  private async nudgeIfStalled(
    i: number,
    nudge: Extract<DrillStep, { nudge_if_stalled: unknown }>['nudge_if_stalled'],
  ): Promise<void> {
    const id = this.taskId(nudge.task);
    const timeout = nudge.timeout !== undefined ? durationMs(nudge.timeout) : DEFAULT_WAIT_MS;
    for (let n = 0; n < (nudge.max ?? 1); n++) {
      const since = this.lastActionAt.get(nudge.task) ?? 0;
      const answered = () =>
        this.client.feed.slice(since).some((e) => e.type === 'ContinuationDecided' && e.streamId === `task-${id}`);
      const state = (await this.client.until(
        `"${nudge.task}" answered with nothing more coming by itself`,
        this.readTask(id),
        (t) =>
          t !== null &&
          t.activeTurnId === null &&
          answered() &&
          (t.pendingCheckpoints.length > 0 || t.lastContinuation?.decision !== 'continue'),
        timeout,
      ))!;
      const workLeft = state.checklist.some((item) => item.status !== 'DONE' && item.status !== 'SKIPPED');
      const stalled =
        state.status !== 'STOPPED' &&
        state.pendingCheckpoints.length === 0 &&
        state.lastContinuation?.decision === 'await_person' &&
        workLeft;
      if (!stalled) return;
      const clientMessageId = `${this.scenario.name}-${i + 1}-nudge-${n + 1}`;
      this.intendedTargets.set(clientMessageId, { task: nudge.task });
      await this.client.request(SEND_MESSAGE_TO_TASK, { text: nudge.text, task: id, client: clientMessageId });
      this.acted(nudge.task);
    }
  }

  private async latestArtifact(task: string, title: string, kind: 'DOCUMENT' | 'FLOW'): Promise<ArtifactRow> {
    const rows = await this.client.until(
      `a ${kind.toLowerCase()} of "${task}" titled like "${title}"`,
      async () =>
        (
          await this.client.request<{ artifacts: { edges: Array<{ node: ArtifactRow }> } }>(TASK_ARTIFACTS, {
            task: this.taskId(task),
          })
        ).artifacts.edges.map((e) => e.node),
      (list) => list.some((a) => this.artifactMatches(a, title, kind)),
      20_000,
    );
    return rows
      .filter((a) => this.artifactMatches(a, title, kind))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0];
  }

  private artifactMatches(a: ArtifactRow, title: string, kind: string): boolean {
    return !a.deleted && a.kind === kind && a.title.toLowerCase().includes(title.toLowerCase());
  }

  private async memoryMatching(text: string) {
    const found = await this.client.until(
      `a memory matching "${text}"`,
      async () =>
        (
          await this.client.request<{
            memories: {
              edges: Array<{ node: { id: string; status: string; currentVersion: { text: string | null } | null } }>;
            };
          }>(MEMORIES)
        ).memories.edges.map((e) => e.node),
      (list) => list.some((m) => (m.currentVersion?.text ?? '').toLowerCase().includes(text.toLowerCase())),
      30_000,
    );
    return found.find((m) => (m.currentVersion?.text ?? '').toLowerCase().includes(text.toLowerCase()))!;
  }

  private async waitFor(wait: Extract<DrillStep, { wait: unknown }>['wait']): Promise<void> {
    const id = this.taskId(wait.task);
    const since = this.lastActionAt.get(wait.task) ?? 0;
    const timeout = wait.timeout !== undefined ? durationMs(wait.timeout) : DEFAULT_WAIT_MS;
    // The agent answered the last action when the task's stream records a continuation decision
    // (every turn ends with one) after it; a wait never reads a state from before the action.
    const answered = () =>
      this.client.feed.slice(since).some((e) => e.type === 'ContinuationDecided' && e.streamId === `task-${id}`);
    const settled = (t: TaskState) => t.activeTurnId === null && answered();
    const accept: Record<typeof wait.for, (t: TaskState) => boolean> = {
      idle: settled,
      done: (t) =>
        settled(t) &&
        t.pendingCheckpoints.length === 0 &&
        t.checklist.every((item) => item.status === 'DONE' || item.status === 'SKIPPED'),
      cards: (t) => t.pendingCheckpoints.length >= (wait.count ?? 1),
      generating: () => this.client.feed.slice(since).some((e) => e.type === 'GenerationSubmitted'),
      stopped: (t) => t.status === 'STOPPED' && t.activeTurnId === null,
      'jobs-settled': () => {
        const jobs = new Set(
          this.client.feed.filter((e) => e.streamId.startsWith('generation-')).map((e) => e.streamId),
        );
        const ended = new Set(
          this.client.feed
            .filter((e) => e.type === 'GenerationCompleted' || e.type === 'GenerationFailed')
            .map((e) => e.streamId),
        );
        return [...jobs].every((job) => ended.has(job));
      },
    };
    const accepted = accept[wait.for];
    await this.client.until(`"${wait.task}" ${wait.for}`, this.readTask(id), (t) => t !== null && accepted(t), timeout);
  }
}
