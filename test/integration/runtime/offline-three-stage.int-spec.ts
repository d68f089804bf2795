import { randomUUID } from 'node:crypto';
import { waitFor } from '@lomo/bus/testing';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { budgetOf, GenerationHarness, limitsOf, person } from '@lomo/generation/testing';
import { OfflineModelProvider } from '@lomo/llm';
import { checkpointIdFor, createPlanTools, resolveCheckpoint } from '@lomo/runtime';
import { HARNESS_USER, HARNESS_WORKSPACE } from '@lomo/runtime/testing';
import type { ToolDefinition } from '@lomo/tools';
import { createWorkspaceTools, type ArtifactCommandService } from '@lomo/workspace';
import { WorkspaceTestProjector } from '@lomo/workspace/testing';
import { late } from './support/late';
import { ofType } from './support/turn-events';

// Article §8's three-stage brief with the OFFLINE policy (the embedded default) instead of a
// scripted model, on real tools: the plan tools, the workspace's document tools and the media
// tools of the generation service on its in-process simulated upstream. The person writes the
// brief once; the policy plans script → storyboard → shots and does one stage per turn; the
// runtime opens every next turn itself, opens the storyboard's review card, and after the
// person's approval a new turn makes the shots and completes the checklist.

const BRIEF = 'Please make a short video of a paper boat drifting down a rainy street';

describe('the offline policy runs a three-stage brief through the runtime', () => {
  let h: GenerationHarness;
  let projector: WorkspaceTestProjector | undefined;

  beforeEach(async () => {
    // The generation harness builds its runtime harness itself, so the plan and workspace tools
    // reach its store and artefact service once they exist.
    const wired: { store?: EventStore; artifacts?: ArtifactCommandService; projector?: WorkspaceTestProjector } = {};
    const artifacts = late(() => wired.artifacts);
    const tools: ToolDefinition[] = [
      ...createPlanTools({ store: late(() => wired.store), ids: { uuid: () => randomUUID() } }),
      ...createWorkspaceTools({
        commands: artifacts,
        reader: artifacts,
        readModel: late(() => wired.projector?.readModel),
        checkpointIdFor,
      }),
    ];
    h = await GenerationHarness.open({
      label: 'offline-three-stage',
      upstream: { config: { latencyMs: 2_000, progressTicks: 1 } },
      extraTools: tools,
    });
    wired.store = h.runtime.store;
    wired.artifacts = h.artifacts;
    projector = wired.projector = new WorkspaceTestProjector(h.runtime.store);
  });
  const meta = { workspaceId: HARNESS_WORKSPACE, correlationId: 'limits', causationId: null, actor: person };
  afterEach(async () => {
    await projector?.close();
    await h.close();
  });

  const task = (taskId: string) => h.read(streams.task(taskId));
  const statuses = (events: readonly EventEnvelope[]) => {
    const latest = new Map<string, string>();
    for (const c of ofType<{ itemId: string; status: string }>(events, 'ChecklistItemChanged'))
      latest.set(c.itemId, c.status);
    return Object.fromEntries(latest);
  };

  it('script and storyboard by continuation, the review card, then the shots after approval: the checklist completes', async () => {
    // A budget and auto-approve limits the person set: the shots need no question about money.
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), budgetOf(1_000_000), meta);
    await h.orders.accounts.write(streams.account(HARNESS_WORKSPACE), limitsOf(10_000, 100_000), meta);
    const { taskId } = await h.runtime.createTask(BRIEF, 'persistent');
    const executor = h.runtime.worker('executor-1', new OfflineModelProvider());
    await h.runtime.consumeWakeUps(executor);

    await executor.worker.wake({ taskId, reason: 'message' });
    await executor.worker.idle();

    // The first turn planned and wrote the script; the runtime's continuation wrote the storyboard.
    let events = await task(taskId);
    const plan = ofType<{ items: Array<{ itemId: string; dependsOn: string[]; needsConfirmation?: boolean }> }>(
      events,
      'ChecklistPlanned',
    );
    expect(plan.map((p) => p.items.map((i) => [i.itemId, i.dependsOn, i.needsConfirmation === true]))).toEqual([
      [
        ['script', [], false],
        ['storyboard', ['script'], true],
        ['shots', ['storyboard'], false],
      ],
    ]);
    expect(
      ofType<{ itemId: string; status: string; evidence?: { kind: string } }>(events, 'ChecklistItemChanged').map(
        (c) => [c.itemId, c.status, c.evidence?.kind],
      ),
    ).toEqual([
      ['script', 'done', 'artifact_version'],
      ['storyboard', 'done', 'artifact_version'],
    ]);
    expect(ofType<{ reason: string }>(events, 'TurnOpened').map((t) => t.reason)).toEqual(['message', 'continuation']);
    const documents = await h.runtime.store.readStream(
      streams.artifact(
        ofType<{ evidence: { artifactId: string } }>(events, 'ChecklistItemChanged')[1].evidence.artifactId,
      ),
    );
    expect(documents[0]).toMatchObject({
      type: 'ArtifactCreated',
      data: expect.objectContaining({ title: 'Storyboard: a paper boat drifting down a rainy street' }),
    });

    // The storyboard waits for the person: the runtime opened its review card and did not go on.
    const reviews = ofType<{ checkpointId: string; kind: string; itemId?: string }>(events, 'CheckpointOpened');
    expect(reviews).toMatchObject([{ kind: 'review', itemId: 'storyboard' }]);
    expect(ofType<{ decision: string; reason: string }>(events, 'ContinuationDecided').at(-1)).toMatchObject({
      decision: 'await_person',
    });

    // The person approves; the runtime opens an approval turn and the policy makes the shots.
    await resolveCheckpoint(h.runtime.commandDeps(), {
      taskId,
      checkpointId: reviews[0].checkpointId,
      decision: 'approve',
      resolvedBy: HARNESS_USER,
    });
    for (let round = 0; round < 40 && statuses(await task(taskId)).shots !== 'done'; round += 1) {
      await h.advance(1_000);
      await executor.worker.idle();
    }
    await waitFor(
      async () => ofType(await task(taskId), 'ContinuationDecided').length >= 3,
      'the shots turn closed with its decision',
      5_000,
    );

    events = await task(taskId);
    expect(statuses(events)).toEqual({ script: 'done', storyboard: 'done', shots: 'done' });
    const shots = ofType<{ itemId: string; evidence?: { kind: string; jobId?: string } }>(
      events,
      'ChecklistItemChanged',
    ).filter((c) => c.itemId === 'shots');
    // Done with the evidence of all three jobs, as the item's declared output (three videos) asks.
    expect(shots).toMatchObject([{ evidence: { kind: 'jobs' } }]);
    expect((shots[0].evidence as { jobIds?: string[] }).jobIds).toHaveLength(3);
    // The workspace's own budget and auto-approve limits cover the shots: no budget card, no card each.
    expect(ofType<{ kind: string }>(events, 'CheckpointOpened').map((c) => c.kind)).toEqual(['review']);
    // Three shots, three video jobs of this task, each made.
    const turnIds = ofType<{ turnId: string }>(events, 'TurnOpened').map((t) => t.turnId);
    const shotsTurn = await h.read(streams.turn(turnIds.at(-1)!));
    const made = ofType<{ callId: string; result?: { jobId?: string; kind?: string } }>(shotsTurn, 'ToolCallCompleted')
      .map((c) => c.result)
      .filter((r) => r?.kind === 'video');
    expect(made).toHaveLength(3);
    expect(ofType<{ decision: string; reason: string }>(events, 'ContinuationDecided').at(-1)).toMatchObject({
      decision: 'finish',
      reason: 'checklist_complete',
    });

    // Every turn after the first was the runtime's: a continuation or the approval, never a
    // person typing "continue"; the person wrote the brief and nothing else.
    const reasons = ofType<{ reason: string }>(events, 'TurnOpened').map((t) => t.reason);
    expect(reasons[0]).toBe('message');
    expect(reasons.slice(1).every((r) => r === 'continuation' || r === 'approval')).toBe(true);
    expect(reasons).toContain('approval');
    expect(ofType<{ text: string }>(events, 'MessageDeliveredToInbox').map((m) => m.text)).toEqual([BRIEF]);
    expect(h.errors).toEqual([]);
  });

  it('with no standing approvals, the plan’s budget card is shown beside the review; both approved, the shots run within the plan with no card each', async () => {
    const { taskId } = await h.runtime.createTask(BRIEF, 'persistent');
    const executor = h.runtime.worker('executor-1', new OfflineModelProvider());
    await h.runtime.consumeWakeUps(executor);
    await executor.worker.wake({ taskId, reason: 'message' });
    await executor.worker.idle();

    let events = await task(taskId);
    const cards = ofType<{ checkpointId: string; kind: string; planQuote?: { amountMinor: number; lines: unknown[] } }>(
      events,
      'CheckpointOpened',
    );
    expect(cards.map((c) => c.kind)).toEqual(['review', 'budget']);
    expect(cards[1].planQuote).toMatchObject({
      amountMinor: 120,
      lines: [{ itemId: 'shots', media: 'video', count: 3 }],
    });
    for (const card of cards) {
      await resolveCheckpoint(h.runtime.commandDeps(), {
        taskId,
        checkpointId: card.checkpointId,
        decision: 'approve',
        resolvedBy: HARNESS_USER,
      });
      await h.service.onCheckpointResolved(HARNESS_WORKSPACE, taskId, card.checkpointId);
    }
    for (let round = 0; round < 40 && statuses(await task(taskId)).shots !== 'done'; round += 1) {
      await h.advance(1_000);
      await executor.worker.idle();
    }
    await waitFor(
      async () => ofType<{ decision: string }>(await task(taskId), 'ContinuationDecided').at(-1)?.decision === 'finish',
      'the runtime finished the plan',
      5_000,
    );
    events = await task(taskId);
    // No card beyond the two the plan needed; every generation reserved within the plan's budget.
    expect(ofType<{ kind: string }>(events, 'CheckpointOpened').map((c) => c.kind)).toEqual(['review', 'budget']);
    const account = await h.accountEvents(HARNESS_WORKSPACE);
    expect(ofType<{ authorization: string }>(account, 'FundsReserved').map((r) => r.authorization)).toEqual([
      'plan_approved',
      'plan_approved',
      'plan_approved',
    ]);
    expect(ofType<{ text: string }>(events, 'MessageDeliveredToInbox').map((m) => m.text)).toEqual([BRIEF]);
    expect(h.sim.upstream.countersSnapshot().distinctJobs).toBe(3);
    expect(h.errors).toEqual([]);
  });
});
