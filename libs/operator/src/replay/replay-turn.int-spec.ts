import { createHash } from 'node:crypto';
import { canonicalJson } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { ScriptedModelProvider, type CompletionRequest, type ScriptedReply } from '@lomo/llm';
import { ContextBuilder, type ContextInput, type Prompt } from '@lomo/runtime';
import { operatorCaller } from '../testing/rebuild-world';
import { RECORDED_SCRIPT, recordScenario, type RecordedScenario } from '../testing/replay-scenario';
import { parsePromptPatch } from './prompt-patch';
import { replayTurn } from './replay-turn';
import type { ReplayOptions } from './replay.types';

/** The head position and a hash of every stream: equal before and after means nothing was appended. */
async function storeFingerprint(store: EventStore) {
  const events = await store.readAll();
  const streams = new Map<string, string[]>();
  for (const e of events)
    streams.set(e.metadata.streamId, [...(streams.get(e.metadata.streamId) ?? []), canonicalJson(e)]);
  const hashes = Object.fromEntries(
    [...streams].map(([id, lines]) => [id, createHash('sha256').update(lines.join('\n')).digest('hex')]),
  );
  return { head: await store.headPosition(), count: events.length, hashes };
}

/** Reverses the messages of one layer: the kind of change a context-builder refactoring could make. */
class ReorderingBuilder extends ContextBuilder {
  constructor(private readonly layer: string) {
    super();
  }
  override build(input: ContextInput): Prompt {
    const prompt = super.build(input);
    const layer = prompt.layers.find((l) => l.layer === this.layer)!;
    const reordered = prompt.messages.slice(layer.start, layer.end).reverse();
    return {
      ...prompt,
      messages: [...prompt.messages.slice(0, layer.start), ...reordered, ...prompt.messages.slice(layer.end)],
    };
  }
}

const asScripted = (reply: (typeof RECORDED_SCRIPT.groceries)[number]): ScriptedReply => ({
  text: reply.text,
  toolCalls: 'toolCalls' in reply ? reply.toolCalls.map((c) => ({ ...c })) : [],
});

describe('replaying a turn the runtime recorded (side-effect free)', () => {
  let scenario: RecordedScenario;
  beforeAll(async () => (scenario = await recordScenario()));
  afterAll(async () => scenario.close());

  const replay = (turn: number, options: ReplayOptions, deps: Record<string, unknown> = {}) =>
    replayTurn(
      { events: scenario.harness.store, blobs: scenario.harness.blobs },
      operatorCaller,
      scenario.turns[turn],
      options,
      { ...scenario.worker.deps, ...deps },
    );

  it('with the recorded replies, rebuilds every prompt byte for byte and reproduces every decision, reaching no provider, tool, bus or store write', async () => {
    // Given the recorded task, and spies on everything a replay could reach: the worker's whole
    // RuntimeDeps is handed to it (its model, its bus (webhooks and wake-ups go out through it),
    // every tool, its scheduler), and the real store and blobs.
    const { harness, worker } = scenario;
    const spies = [
      jest.spyOn(worker.deps.model, 'complete'),
      jest.spyOn(worker.deps.bus, 'publish'),
      jest.spyOn(worker.deps.scheduler, 'every'),
      ...harness.tools.list().map((tool) => jest.spyOn(tool, 'run')),
      jest.spyOn(harness.store, 'append'),
      jest.spyOn(harness.store, 'appendImported'),
      jest.spyOn(harness.blobs, 'put'),
      jest.spyOn(harness.blobs, 'delete'),
    ];
    const before = await storeFingerprint(harness.store);

    // When both turns are replayed with the recorded model
    const first = await replay(0, { model: 'recorded' });
    const second = await replay(1, { model: 'recorded' });

    // Then every step's prompt is reproduced and every decision equals the record
    for (const report of [first, second]) {
      expect(report.steps.map((s) => s.context?.status)).toEqual(report.steps.map(() => 'reproduced'));
      expect(report.steps.every((s) => s.status === 'replayed' && !s.diverged && s.reply.equal)).toBe(true);
      expect(report.divergedAt).toBeNull();
      expect(report.driftAt).toBeNull();
    }
    expect(first.steps.map((s) => s.reply.replayed)).toEqual(RECORDED_SCRIPT.groceries.map((r) => r.text));
    expect(first.steps.map((s) => s.toolCalls.map((c) => [c.tool, c.status, c.outcome?.status]))).toEqual([
      [['notes.create', 'reused', 'ok']],
      [['notes.list', 'reused', 'ok']],
      [],
    ]);
    // And nothing was called, appended or written
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(await storeFingerprint(harness.store)).toEqual(before);
    for (const spy of spies) spy.mockRestore();
  });

  it('with a scripted model that answers differently at step 2, shows the divergence there, stubs its call and replays nothing after it', async () => {
    // Given a model that repeats step 1 and then deletes a note instead of listing them
    const model = new ScriptedModelProvider([
      { label: 'same as recorded', reply: asScripted(RECORDED_SCRIPT.groceries[0]) },
      {
        label: 'another decision',
        reply: { toolCalls: [{ name: 'notes.delete', arguments: { noteId: '00000000-0000-4000-8000-000000000000' } }] },
      },
    ]);
    const before = await storeFingerprint(scenario.harness.store);
    const tools = scenario.harness.tools.list().map((tool) => jest.spyOn(tool, 'run'));

    // When the first turn is replayed with it
    const report = await replay(0, { model });

    // Then step 1 matches and reuses its recorded result, step 2 diverges with its call stubbed,
    // and step 3 is not replayed
    expect(report.divergedAt).toBe(2);
    expect(report.steps.map((s) => [s.step, s.status, s.diverged])).toEqual([
      [1, 'replayed', false],
      [2, 'replayed', true],
      [3, 'not_replayed', false],
    ]);
    expect(report.steps[1].toolCalls).toEqual([
      {
        callId: null,
        tool: 'notes.delete',
        recorded: null,
        replayed: { noteId: '00000000-0000-4000-8000-000000000000' },
        status: 'stubbed',
      },
      {
        callId: `${scenario.turns[0]}:2:0`,
        tool: 'notes.list',
        recorded: { limit: 5 },
        replayed: null,
        status: 'not_called',
      },
    ]);
    // The model saw the rebuilt prompts, which are the recorded ones
    expect(report.steps.slice(0, 2).map((s) => s.context?.status)).toEqual(['reproduced', 'reproduced']);
    model.assertAllConsumed();
    for (const tool of tools) expect(tool).not.toHaveBeenCalled();
    expect(await storeFingerprint(scenario.harness.store)).toEqual(before);
    for (const tool of tools) tool.mockRestore();
  });

  it('a prompt patch that changes a rule changes the scripted model’s answer, and the diff shows it at the step it changed', async () => {
    // Given a rule added by a patch, and a model that answers at once when it reads it
    const patch = parsePromptPatch(
      JSON.stringify({
        patches: [
          {
            layer: 'prefix',
            find: 'You are Lomo, an agent working on one task for one person over many steps.',
            replace: 'You are Lomo. Never list notes after creating one: answer at once.',
          },
        ],
      }),
    );
    const readsTheRule = (request: CompletionRequest) => request.messages[0].content.includes('Never list notes');
    const script = (patched: boolean) =>
      new ScriptedModelProvider([
        { reply: asScripted(RECORDED_SCRIPT.groceries[0]) },
        {
          reply: (request): ScriptedReply =>
            readsTheRule(request) ? { text: 'Created groceries.' } : asScripted(RECORDED_SCRIPT.groceries[1]),
        },
        ...(patched ? [] : [{ reply: asScripted(RECORDED_SCRIPT.groceries[2]) }]),
      ]);

    // When the turn is replayed with the patch, and without it
    const withPatch = await replay(0, { model: script(true), promptPatch: patch });
    const without = await replay(0, { model: script(false) });

    // Then the patched replay answers at step 2 instead of listing, and the unpatched one does not diverge
    expect(withPatch.divergedAt).toBe(2);
    expect(withPatch.steps[1]).toMatchObject({
      patched: ['layer prefix: "You are Lomo, an agent working on one task for one person over many steps."'],
      reply: { recorded: '', replayed: 'Created groceries.', equal: false },
      toolCalls: [{ tool: 'notes.list', status: 'not_called' }],
      // The patch is applied after the comparison: the context itself is still the recorded one.
      context: { status: 'reproduced' },
    });
    expect(withPatch.steps[2].status).toBe('not_replayed');
    expect(without.divergedAt).toBeNull();
  });

  it('a changed context builder (one that reorders a layer) is reported as context drift at the first step it affects', async () => {
    // Given a builder that reverses the recent layer: step 1 of a first turn has one message there
    // (the turn's marker), so it first shows at step 2
    const builder = new ReorderingBuilder('recent');

    // When the first turn is replayed with it
    const report = await replay(0, { model: 'recorded' }, { contextBuilder: builder });

    // Then step 1 is reproduced and step 2 is the first drift, in the recent layer
    expect(report.driftAt).toBe(2);
    expect(report.steps[0].context).toMatchObject({ status: 'reproduced' });
    expect(report.steps[1].context).toMatchObject({ status: 'context_drift', firstDifferingLayer: 'recent' });
    // The decisions are the recorded ones: drift is a finding about the context, not a divergence
    expect(report.divergedAt).toBeNull();
  });

  it('a model that gives no answer ends the replay at that step with its typed error', async () => {
    // Given a model that answers step 1 only
    const model = new ScriptedModelProvider([{ reply: asScripted(RECORDED_SCRIPT.groceries[0]) }]);

    // When the turn is replayed with it
    const report = await replay(0, { model });

    // Then step 2 says the model failed and why, and step 3 is not replayed
    expect(report.steps.map((s) => s.status)).toEqual(['replayed', 'model_failed', 'not_replayed']);
    expect(report.steps[1].error).toMatchObject({ code: 'MODEL_UNSCRIPTED' });
    expect(report.steps[1].context).toMatchObject({ status: 'reproduced' });
  });

  it('replays one step alone with --step', async () => {
    const report = await replay(0, { model: 'recorded', step: 2 });

    expect(report.steps.map((s) => [s.step, s.context?.status])).toEqual([[2, 'reproduced']]);
  });
});
