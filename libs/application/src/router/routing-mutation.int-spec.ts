import type { INestApplicationContext } from '@nestjs/common';
import type { TestMutation } from '@lomo/contracts';
import { ScriptedModelProvider, type CompletionRequest } from '@lomo/llm';
import { FakeArtifactBindings, FakeRoutingCandidates } from '@lomo/routing/testing';
import { RouteUserMessage } from './route-user-message.command';
import { RouteUserMessageHandler } from './route-user-message.handler';
import { RouterHarness } from '../testing/router-harness';

// The drills' no_routing_context mutation (libs/platform/src/test-control/README.md): the router
// no longer boosts the tasks this person's latest messages went to, so a follow-up that the index
// has not caught up with finds no target.

const answer = (outcome: string, taskRef: string | null, goal: string | null = null) => ({
  outcome,
  taskRef,
  scores: [],
  reply: null,
  goal,
  question: null,
});
const candidatesOf = (request: CompletionRequest): Array<{ ref: string; source: string }> =>
  JSON.parse([...request.messages].reverse().find((m) => m.role === 'user')!.content).candidates;

describe('no_routing_context', () => {
  let h: RouterHarness;
  let app: INestApplicationContext;

  afterEach(async () => {
    await app?.close();
    await h?.close();
  });

  async function followUp(mutations: TestMutation[]) {
    h = await RouterHarness.open();
    const model = new ScriptedModelProvider();
    app = await h.startRouterApp(
      { model, candidates: new FakeRoutingCandidates(), bindings: new FakeArtifactBindings(), timeoutMs: 2_000 },
      { enabled: true, mutation: (name) => mutations.includes(name), fault: () => false },
    );
    const route = async (text: string, id: string) =>
      app.get(RouteUserMessageHandler).execute(new RouteUserMessage(await h.receive(text, { clientMessageId: id })));
    model.push({ reply: { json: answer('new', null, 'A flyer for the jazz night') } });
    const first = await route('A flyer for the jazz night', 'm-1');
    let seen: Array<{ ref: string; source: string }> = [];
    model.push({
      reply: (request) => {
        seen = candidatesOf(request);
        const recent = seen.find((c) => c.source === 'recent_decision');
        return { json: answer(recent ? 'existing' : 'new', recent?.ref ?? null, recent ? null : 'make it blue') };
      },
    });
    const second = await route('make it blue', 'm-2');
    return { created: first.deliveredTo, second, seen };
  }

  it('off: the follow-up sees the task its previous message created and goes there', async () => {
    const { created, second, seen } = await followUp([]);
    expect(seen.map((c) => c.source)).toContain('recent_decision');
    expect(second).toMatchObject({ deliveredTo: created, decision: { outcome: 'existing' } });
  });

  it('on: the recent decision is not among the candidates, so the follow-up is misrouted', async () => {
    const { created, second, seen } = await followUp(['no_routing_context']);
    expect(seen.map((c) => c.source)).not.toContain('recent_decision');
    expect(second.decision.outcome).toBe('new');
    expect(second.deliveredTo).not.toBe(created);
  });
});
