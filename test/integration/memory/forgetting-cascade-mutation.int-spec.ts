import { randomUUID } from 'node:crypto';
import type { TestMutation } from '@lomo/contracts';
import { OfflineMemoryExtractor } from '@lomo/memory';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { MemoryRig } from './support/memory-rig';

// The drills' no_forgetting_cascade mutation (libs/platform/src/test-control/README.md): the
// forgetting still runs on the memory side, but the person's tasks keep the forgotten message in
// their prompts, which is what forgotten_reappearing counts.

const M1 = "Our brand's main colour is blue.";

describe('no_forgetting_cascade', () => {
  let harness: RuntimeHarness;
  afterEach(async () => harness?.close());

  async function forgetThenAsk(mutations: TestMutation[]) {
    harness = await RuntimeHarness.open({ label: 'forgetting-mutation' });
    const rig = new MemoryRig(harness, new OfflineMemoryExtractor(), {
      mutation: (name) => mutations.includes(name),
    });
    const { taskId } = await rig.startTask('Design our brand kit');
    const m1 = await rig.say(taskId, M1);
    const evidence = Object.values((await rig.state()).evidence).find(
      (e) => e.source.kind === 'message' && e.source.messageId === m1,
    )!;
    const forgettingId = randomUUID();
    await rig.decide([
      {
        type: 'RequestForgetting',
        forgettingId,
        target: { kind: 'evidence', evidenceIds: [evidence.evidenceId] },
        requestedBy: rig.user,
      },
      { type: 'ConfirmForgetting', forgettingId, confirmedBy: rig.user },
    ]);
    await rig.feed();
    const forgetting = (await rig.state()).forgettings[forgettingId];
    const sent = rig.model.requests.length;
    await rig.say(taskId, 'Now the first poster, please.');
    const later = rig.model.requests.slice(sent).map((r) => JSON.stringify(r.messages));
    return { forgetting, later };
  }

  it('off: the task leaves the forgotten message out of its later prompts', async () => {
    const { forgetting, later } = await forgetThenAsk([]);
    expect(forgetting.status).toBe('completed');
    expect(forgetting.report!.excluded).toHaveLength(1);
    expect(later.length).toBeGreaterThan(0);
    for (const prompt of later) expect(prompt).not.toContain(M1);
  });

  it('on: the forgetting completes without excluding anything, and the message reappears', async () => {
    const { forgetting, later } = await forgetThenAsk(['no_forgetting_cascade']);
    expect(forgetting.status).toBe('completed');
    expect(forgetting.report!.excluded).toEqual([]);
    expect(later.some((prompt) => prompt.includes(M1))).toBe(true);
  });
});
