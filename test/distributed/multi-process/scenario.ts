import type { Client } from 'graphql-ws';
import { waitFor } from '@lomo/bus/testing';
import { countEffectsByKey } from '@lomo/tools/testing';
import { gqlData, LiveFeed, liveClient } from './api-client';
import type { Drill } from './drill';
import { turnFacts, turnsOfTasks, type TurnFacts } from './store-facts';

interface MainlinePayload {
  mainlineUpdated: { snapshot: boolean; items: Array<{ id: string; routing: { taskId: string | null } | null }> };
}
interface TaskState {
  id: string;
  status: string;
  counts: { turns: number; steps: number };
  activeTurnSummary: { turnId: string } | null;
}
interface TaskPayload {
  taskUpdated: { consistencyToken: string; task: TaskState };
}
interface TurnView {
  id: string;
  status: string | null;
  generation: number;
  steps: { edges: Array<{ node: { step: number } }> };
  ledger: { edges: Array<{ node: { callId: string; status: string; outcome: string | null } }> };
}

const MAINLINE = 'subscription { mainlineUpdated(first: 50) { snapshot items { id routing { taskId } } } }';
const TASK_FIELDS = 'id status counts { turns steps } activeTurnSummary { turnId }';
const TASK_UPDATED = `subscription($id: ID!) { taskUpdated(taskId: $id) { consistencyToken task { ${TASK_FIELDS} } } }`;
const TASK = `query($id: ID!) { task(id: $id) { ${TASK_FIELDS} } }`;
const TURN = `query($id: ID!) { turn(id: $id) { id status generation
  steps(first: 100) { edges { node { step } } }
  ledger(first: 100) { edges { node { callId status outcome } } } } }`;

/** Notes, so every turn calls a tool with a real, countable effect (notes.create). */
const FIRST_MESSAGES = [
  'Please take a note: the harbour mural needs a night-time palette',
  'Please take a note: interview the ferry captain about the 1970s timetable',
  'Please take a note: the bakery poster must be bilingual',
  'Please take a note: storyboard the lighthouse sequence in six panels',
];
const followUp = (i: number) =>
  i % 2 === 0 ? `Please take a note: follow-up ${i + 1}, check the colour proofs` : 'What happened so far?';

export interface Verdict {
  tasks: number;
  turns: number;
  toolCalls: number;
  effects: number;
  generations: number[];
}

/**
 * The multi-task scenario every drill runs: four notes through Main (each becomes a task whose
 * turn calls notes.create), a follow-up per task (another note or a task.history read), with
 * `mainlineUpdated` and `taskUpdated` open on every API instance. `verify` checks the guarantees
 * a drill must keep whatever it broke meanwhile.
 */
export class Scenario {
  readonly messageIds: string[] = [];
  taskIds: string[] = [];
  private readonly clients: Client[] = [];
  private readonly mainFeeds: Array<LiveFeed<MainlinePayload>> = [];
  /** Per API instance, per task. */
  private readonly taskFeeds: Array<Map<string, LiveFeed<TaskPayload>>> = [];

  private token = '';

  /** `workspace` is this scenario's own: its tasks, main line and subscriptions are its alone. */
  constructor(
    private readonly drill: Drill,
    readonly workspace: string,
  ) {}

  /** Opens the main line on every API instance before anything is sent, to see every change live. */
  async openMainline(): Promise<void> {
    this.token = await this.drill.newToken(this.workspace);
    for (const api of this.drill.apis) {
      const client = liveClient(api.url!, this.token);
      this.clients.push(client);
      const feed = new LiveFeed<MainlinePayload>(client, MAINLINE);
      this.mainFeeds.push(feed);
      this.taskFeeds.push(new Map());
    }
    await waitFor(
      () => this.mainFeeds.every((f) => f.payloads.length > 0 || f.ended),
      'the main-line snapshots',
      30_000,
      20,
    );
    this.assertFeedsAlive();
  }

  /** Sends the first messages, alternating API instances (either serves any command). */
  async sendFirst(count = FIRST_MESSAGES.length): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      this.messageIds.push(await this.drill.send(this.token, FIRST_MESSAGES[i], undefined, i % this.drill.apis.length));
    }
  }

  /** Waits for every first message's routing, then follows each task live on every instance. */
  /**
   * The rest of the scenario after a drill's disruption: follow every task, let its first turn
   * end, send the follow-ups, let the second turns end, then check every guarantee.
   */
  async completeAndVerify(followTimeoutMs?: number): Promise<Verdict> {
    await this.followTasks(followTimeoutMs);
    await this.settle(1);
    await this.sendFollowUps();
    await this.settle(2);
    return this.verify();
  }

  async followTasks(timeoutMs = 120_000): Promise<void> {
    const routed: string[] = [];
    for (const id of this.messageIds) routed.push(await this.drill.routedTask(this.token, id, timeoutMs));
    this.taskIds = [...new Set(routed)];
    for (const [i, client] of this.clients.entries()) {
      for (const taskId of this.taskIds) {
        if (!this.taskFeeds[i].has(taskId))
          this.taskFeeds[i].set(taskId, new LiveFeed(client, TASK_UPDATED, { id: taskId }));
      }
    }
    await waitFor(
      () => this.taskFeeds.every((m) => [...m.values()].every((f) => f.payloads.length > 0 || f.ended)),
      'the tasks’ first live states',
      30_000,
      20,
    );
    this.assertFeedsAlive();
  }

  /** A second message to each task, explicitly targeted: a second turn per task. */
  async sendFollowUps(): Promise<void> {
    for (const [i, taskId] of this.taskIds.entries()) {
      this.messageIds.push(await this.drill.send(this.token, followUp(i), taskId, (i + 1) % this.drill.apis.length));
    }
  }

  /** Until the store shows `turnsPerTask` turns per task, every one ended and closed. */
  async settle(turnsPerTask: number, timeoutMs = 180_000): Promise<void> {
    await waitFor(
      async () => {
        const events = await this.drill.events();
        const facts = turnFacts(events);
        const turns = turnsOfTasks(events);
        return this.taskIds.every((taskId) => {
          const ids = turns.get(taskId) ?? [];
          return ids.length >= turnsPerTask && ids.every((id) => facts.get(id)?.lastType === 'TurnCompleted');
        });
      },
      `${turnsPerTask} completed turn(s) per task`,
      timeoutMs,
      250,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${this.drill.diagnostics()}`);
    });
  }

  /**
   * The guarantees: every turn completed; at most one effect per idempotency key, and exactly
   * one per successful write call; every turn's steps and ledger in the read model equal to the
   * store's events (nothing missing, nothing twice); every task's counts too; and every API
   * instance's subscriptions ended on the same, final state of each task and saw each routing.
   */
  async verify(): Promise<Verdict> {
    const events = await this.drill.events();
    const facts = turnFacts(events);
    const turnsByTask = turnsOfTasks(events);
    const turnIds = this.taskIds.flatMap((t) => turnsByTask.get(t) ?? []);

    for (const id of turnIds) expect([id, facts.get(id)?.lastType]).toEqual([id, 'TurnCompleted']);

    // Across the whole deployment no key ever had two effects; this scenario's keys had exactly one each.
    const allEffects = countEffectsByKey(this.drill.effectLog);
    expect([...allEffects].filter(([, n]) => n > 1)).toEqual([]);
    const mine = new Set(turnIds);
    const effects = new Map([...allEffects].filter(([key]) => mine.has(key.split(':')[0])));
    const writes = turnIds.flatMap((id) => {
      const f = facts.get(id)!;
      return f.started.filter(
        (c) => c.tool === 'notes.create' && f.completed.some((d) => d.callId === c.callId && d.status === 'ok'),
      );
    });
    expect(new Set(effects.keys())).toEqual(new Set(writes.map((c) => c.callId)));

    for (const id of turnIds) {
      const expected = expectedTurn(facts.get(id)!);
      const view = await this.eventuallyEqual(
        async () => {
          const data = await gqlData<{ turn: TurnView | null }>(this.drill.api(), this.token, TURN, { id });
          return data.turn === null ? null : turnShape(data.turn);
        },
        expected,
        `turn ${id} in the read model`,
      );
      expect(view).toEqual(expected);
    }

    const finalStates = new Map<string, TaskState>();
    for (const taskId of this.taskIds) {
      const turns = turnsByTask.get(taskId) ?? [];
      const steps = turns.reduce((sum, id) => sum + (facts.get(id)?.steps.length ?? 0), 0);
      const state = await this.eventuallyEqual(
        async () =>
          (await gqlData<{ task: TaskState | null }>(this.drill.api(), this.token, TASK, { id: taskId })).task,
        { counts: { turns: turns.length, steps }, activeTurnSummary: null },
        `task ${taskId} in the read model`,
        (s) => (s === null ? null : { counts: s.counts, activeTurnSummary: s.activeTurnSummary }),
      );
      finalStates.set(taskId, state!);
    }

    // Each instance consumes the change notices in a group of its own: both must get there.
    for (const [i, feeds] of this.taskFeeds.entries()) {
      for (const [taskId, feed] of feeds) {
        const final = finalStates.get(taskId)!;
        await waitFor(
          () => feed.ended || isState(feed.payloads[feed.payloads.length - 1], final),
          `api-${i + 1} streaming task ${taskId} to its final state`,
          30_000,
          20,
        ).catch(() => undefined);
        expect([`api-${i + 1}`, taskId, feed.payloads[feed.payloads.length - 1]?.taskUpdated.task]).toEqual([
          `api-${i + 1}`,
          taskId,
          final,
        ]);
        // Live, in order: never an older state after a newer one.
        const counts = feed.payloads.map((p) => p.taskUpdated.task.counts);
        for (let k = 1; k < counts.length; k += 1) {
          expect(counts[k].turns).toBeGreaterThanOrEqual(counts[k - 1].turns);
          expect(counts[k].steps).toBeGreaterThanOrEqual(counts[k - 1].steps);
        }
        // The follow-up's turn happened after the feed opened, so it arrived as live updates.
        expect(feed.payloads.length).toBeGreaterThan(1);
      }
    }
    for (const [i, feed] of this.mainFeeds.entries()) {
      const routedIds = () =>
        new Set(
          feed.payloads.flatMap((p) =>
            p.mainlineUpdated.items.filter((it) => it.routing?.taskId != null).map((it) => it.id),
          ),
        );
      // The feed is pushed from change notices, after the read model: the last routing may still be on its way.
      await waitFor(
        () => feed.ended || this.messageIds.every((id) => routedIds().has(id)),
        `api-${i + 1} streaming every routing on the mainline`,
        30_000,
        20,
      ).catch(() => undefined);
      const seen = routedIds();
      const missing = this.messageIds.filter((id) => !seen.has(id));
      // On failure, what the feed itself went through says whether it stalled, ended or erred.
      const state =
        missing.length === 0 ? {} : { payloads: feed.payloads.length, ended: feed.ended, errors: feed.errors };
      expect([`api-${i + 1}`, missing, state]).toEqual([`api-${i + 1}`, [], {}]);
    }
    this.assertFeedsAlive();
    // A consumer dead inside a live process can hide behind its group's other members and the
    // watchdog, so the guarantees above may hold without it: it is looked for in the logs.
    expect(this.drill.consumersGivenUp()).toEqual([]);

    return {
      tasks: this.taskIds.length,
      turns: turnIds.length,
      toolCalls: turnIds.reduce((n, id) => n + (facts.get(id)?.completed.length ?? 0), 0),
      effects: effects.size,
      generations: [...new Set(turnIds.flatMap((id) => [...(facts.get(id)?.writerGenerations ?? [])]))].sort(),
    };
  }

  async close(): Promise<void> {
    for (const feeds of this.taskFeeds) for (const f of feeds.values()) f.unsubscribe();
    for (const f of this.mainFeeds) f.unsubscribe();
    await Promise.all(this.clients.map((c) => c.dispose()));
  }

  private assertFeedsAlive(): void {
    const broken = [...this.mainFeeds, ...this.taskFeeds.flatMap((m) => [...m.values()])].filter(
      (f) => f.ended || f.errors.length > 0,
    );
    expect(broken.map((f) => f.errors)).toEqual([]);
  }

  /** Polls until the read model (projected asynchronously) equals `expected`, then returns the last read. */
  private async eventuallyEqual<T, S>(
    read: () => Promise<T>,
    expected: S,
    what: string,
    shape: (value: T) => unknown = (v) => v,
  ): Promise<T> {
    let last: T | undefined;
    await waitFor(
      async () => {
        last = await read();
        return JSON.stringify(shape(last)) === JSON.stringify(expected);
      },
      what,
      30_000,
      200,
    ).catch(() => undefined);
    expect(shape(last as T)).toEqual(expected);
    return last as T;
  }
}

function isState(payload: TaskPayload | undefined, state: TaskState): boolean {
  return payload !== undefined && JSON.stringify(payload.taskUpdated.task) === JSON.stringify(state);
}

/** The read model's view of a turn, in the store's terms: steps and ledger entries by call id. */
function turnShape(turn: TurnView): { status: string | null; steps: number[]; ledger: string[]; generation: number } {
  return {
    status: turn.status,
    steps: turn.steps.edges.map((e) => e.node.step).sort((a, b) => a - b),
    ledger: turn.ledger.edges.map((e) => `${e.node.callId}:${e.node.status}:${e.node.outcome}`).sort(),
    generation: turn.generation,
  };
}

/** What the read model must show for a turn: one step per ModelStepCommitted, one entry per ToolCallCompleted. */
function expectedTurn(facts: TurnFacts): ReturnType<typeof turnShape> {
  return {
    status: 'COMPLETED',
    steps: [...facts.steps].sort((a, b) => a - b),
    ledger: facts.completed.map((c) => `${c.callId}:COMPLETED:${c.status === 'ok' ? 'OK' : 'ERROR'}`).sort(),
    generation: Math.max(0, ...facts.leases.map((l) => l.generation)),
  };
}
