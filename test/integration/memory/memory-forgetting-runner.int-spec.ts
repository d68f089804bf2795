import { randomUUID } from 'node:crypto';
import { streams } from '@lomo/contracts';
import { versionAt } from '@lomo/domain';
import type { CompletionRequest, CompletionResult, ModelProvider } from '@lomo/llm';
import { OfflineMemoryExtractor, type ExtractionRequest, type MemoryExtractor } from '@lomo/memory';
import { forkTask } from '@lomo/operator';
import { operatorCaller } from '@lomo/operator/testing';
import { PromptArchive } from '@lomo/runtime';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { MemoryRig } from './support/memory-rig';

// Memory's background work on the runtime's real parts (SQLite store, filesystem blobs, a SQLite
// recall index), driven as its consumer drives it: the forgetting cascade with a model whose
// replies cite every message, inferred vs explicit, one malformed candidate among valid ones, a
// new statement after a forgetting, a correction with validity, and a cascade resumed after a crash.

const M1 = "Our brand's main colour is blue.";
const M2 = 'Blue with off-white is softer.';
const M3 = 'Yes, blue with off-white is right.';

describe('memory runner on the runtime', () => {
  let harness: RuntimeHarness;
  let rig: MemoryRig;
  beforeEach(async () => {
    harness = await RuntimeHarness.open({ label: 'memory-runner' });
    rig = new MemoryRig(harness);
  });
  afterEach(async () => harness.close());

  const forget = async (evidenceIds: string[]) => {
    const forgettingId = randomUUID();
    await rig.decide([
      { type: 'RequestForgetting', forgettingId, target: { kind: 'evidence', evidenceIds }, requestedBy: rig.user },
    ]);
    // Asked is not forgotten: nothing happens until the person confirms.
    await rig.feed();
    expect((await rig.state()).forgettings[forgettingId].status).toBe('requested');
    await rig.decide([{ type: 'ConfirmForgetting', forgettingId, confirmedBy: rig.user }]);
    await rig.feed();
    return forgettingId;
  };
  const evidenceOf = async (messageId: string) =>
    Object.values((await rig.state()).evidence).find(
      (e) => e.source.kind === 'message' && e.source.messageId === messageId,
    )!;
  const promptsSince = async (count: number) => {
    const archive = new PromptArchive(harness.blobs);
    const out: string[] = [];
    for (const request of rig.model.requests.slice(count)) out.push(JSON.stringify(request.messages));
    // The stored prompts say the same as what the model was sent.
    const committed = await harness.store.readAll({ filter: { eventTypes: ['ModelStepCommitted'] } });
    for (const e of committed.slice(count))
      out.push(JSON.stringify(await archive.load((e.data as never as { promptRef: never }).promptRef)));
    return out;
  };

  it('a fork of the task made before the forgetting is reached by it: its copy of the statement and of the replies that cited it leave the fork’s prompts', async () => {
    const { taskId } = await rig.startTask('Design our brand kit');
    const m1 = await rig.say(taskId, M1);
    // An operator forks the task as it stands; memory notes the fork's copy of the message.
    const head = (await harness.read(streams.task(taskId))).length - 1;
    const fork = await forkTask(
      harness.store,
      operatorCaller,
      taskId,
      { at: { kind: 'revision', revision: head }, confirm: true },
      { clock: harness.clock, ids: harness.ids },
    );
    await rig.feed();
    expect((await evidenceOf(m1)).copiedTo).toEqual([fork.forkTaskId]);

    const forgettingId = await forget([(await evidenceOf(m1)).evidenceId]);

    const report = (await rig.state()).forgettings[forgettingId].report!;
    expect(report.excluded.map((x) => x.taskId).sort()).toEqual([taskId, fork.forkTaskId].sort());
    const sent = rig.model.requests.length;
    await rig.say(fork.forkTaskId, 'What else should the kit include?');
    const prompts = rig.model.requests.slice(sent).map((r) => JSON.stringify(r.messages));
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.join('\n')).toContain('What else should the kit include?');
    for (const prompt of prompts) expect(prompt).not.toContain('main colour is blue');
  });

  it('forgetting the first statement: replies that cited it and steps shown its versions leave later prompts, an unrelated blue sky stays', async () => {
    const { taskId } = await rig.startTask('Design our brand kit');
    const m1 = await rig.say(taskId, M1);
    await rig.say(taskId, M2);
    await rig.say(taskId, M3);
    const sky = await rig.startTask('Write a poem about a blue sky over the harbour');
    const before = await rig.state();
    const [v1, v2] = Object.values(before.versions).filter((v) => v.subject === 'brand.colour.main');
    const v1Claim = (await rig.text(v1.text!.hash))!.split('\n')[0];
    const v2Claim = (await rig.text(v2.text!.hash))!.split('\n')[0];
    const skyTurns = (await harness.read(streams.task(sky.taskId))).filter((e) => e.type === 'TurnOpened');
    expect(skyTurns).toHaveLength(1);

    const sent = rig.model.requests.length;
    const forgettingId = await forget([(await evidenceOf(m1)).evidenceId]);
    const report = (await rig.state()).forgettings[forgettingId].report!;
    // The sky task's first step was shown the brand memory (recall by meaning found "blue"): its
    // reply is excluded by that recorded provenance, its own words stay.
    expect(report.excluded.find((x) => x.taskId === sky.taskId)).toEqual({
      taskId: sky.taskId,
      messageIds: [],
      steps: [{ turnId: (skyTurns[0].data as { turnId: string }).turnId, step: 1 }],
      segmentIds: [],
    });
    expect(report.purgedVersionIds.sort()).toEqual([v1.versionId, v2.versionId].sort());

    await rig.say(taskId, 'Now the first poster, please.');
    await rig.say(sky.taskId, 'Add a few seagulls.');
    const later = await promptsSince(sent);
    expect(later.length).toBeGreaterThanOrEqual(4);
    for (const prompt of later) {
      expect(prompt).not.toContain(M1);
      // The model's reply to it cited it word for word; that reply is gone too.
      expect(prompt).not.toContain(`Noted: ${M1}`);
      expect(prompt).not.toContain(v1Claim);
      expect(prompt).not.toContain(v2Claim);
    }
    const skyPrompts = rig.model.requests.slice(sent).filter((r) => JSON.stringify(r.messages).includes('seagulls'));
    expect(skyPrompts.length).toBeGreaterThan(0);
    for (const r of skyPrompts) expect(JSON.stringify(r.messages)).toMatch(/blue sky/);

    // The report against the stores, checked without the cascade's code.
    for (const id of report.purgedVersionIds) {
      const created = (await harness.read(rig.stream)).find(
        (e) => e.type === 'MemoryVersionCreated' && (e.data as { versionId: string }).versionId === id,
      )!;
      expect(await harness.blobs.has((created.data as { text: { hash: string } }).text.hash)).toBe(false);
    }
    for (const hash of report.blobsDeleted) expect(await harness.blobs.has(hash)).toBe(false);
    const scope = `${rig.workspace}.${rig.user}`;
    const indexed = await rig.search.searchText(scope, 'brand main colour blue off-white softer', { limit: 100 });
    for (const id of report.indexEntriesDeleted) expect(indexed.map((h) => h.id)).not.toContain(id);
    const profile = await rig.profile.current(rig.workspace, rig.user);
    expect(profile!.version).toBe(report.profileVersion);
    expect(profile!.text).not.toContain(v1Claim);
    for (const v of report.purgedProfileVersions) {
      const published = (await harness.read(rig.stream)).find(
        (e) => e.type === 'ProfileVersionPublished' && (e.data as { version: number }).version === v,
      )!;
      expect(await harness.blobs.has((published.data as { text: { hash: string } }).text.hash)).toBe(false);
    }
    const taskExclusion = report.excluded.find((x) => x.taskId === taskId)!;
    expect(taskExclusion.messageIds).toEqual([m1]);
  });

  it('a new explicit statement after the forgetting is new evidence and is not suppressed; re-extraction never re-derives the forgotten fact', async () => {
    const { taskId } = await rig.startTask('Design our brand kit');
    const m1 = await rig.say(taskId, M1);
    await rig.say(taskId, M2);
    await forget([(await evidenceOf(m1)).evidenceId]);
    const afterForget = await rig.state();
    const standingBlue = Object.values(afterForget.versions).filter(
      (v) => v.subject === 'brand.colour.main' && v.status === 'current',
    );
    expect(standingBlue).toEqual([]);
    expect(afterForget.suppressions.length).toBeGreaterThan(0);

    await rig.say(taskId, "Use blue again: our brand's main colour is blue.");
    const again = Object.values((await rig.state()).versions).filter(
      (v) => v.subject === 'brand.colour.main' && v.status === 'current',
    );
    expect(again).toHaveLength(1);
    expect(await rig.text(again[0].text!.hash)).toMatch(/main colou?r is blue/i);
  });

  it('inferred vs explicit: several cyberpunk images give an inferred preference that never becomes explicit nor enters the profile', async () => {
    class ImageModel implements ModelProvider {
      readonly name = 'images';
      private n = 0;
      complete(request: CompletionRequest): Promise<CompletionResult> {
        void request;
        this.n += 1;
        const last = this.n % 2 === 0;
        return Promise.resolve({
          text: last ? 'Made it.' : 'Generating.',
          toolCalls: last
            ? []
            : [
                {
                  id: `c${this.n}`,
                  name: 'image.generate',
                  arguments: JSON.stringify({ prompt: `a cyberpunk street at night, scene ${this.n}` }),
                },
              ],
          usage: { inputTokens: 1, outputTokens: 1 },
          finishReason: last ? 'stop' : 'tool_calls',
          model: 'images',
        });
      }
    }
    const { worker } = harness.worker('worker-images', new ImageModel());
    const { taskId } = await harness.createTask('Make some city images', 'persistent', rig.user);
    for (let i = 0; i < 3; i += 1) {
      if (i > 0) await harness.deliver(taskId, `Another one, number ${i + 1}.`, rig.user);
      await worker.wake({ taskId, reason: 'message' });
      await rig.feed();
    }
    const state = await rig.state();
    const observations = Object.values(state.evidence).filter((e) => e.source.kind === 'observation');
    expect(observations.length).toBeGreaterThanOrEqual(3);
    const versions = Object.values(state.versions);
    const inferred = versions.filter((v) => v.origin === 'inferred');
    expect(inferred.length).toBeGreaterThanOrEqual(1);
    expect(await rig.text(inferred[0].text!.hash)).toMatch(/cyberpunk/i);
    expect(versions.filter((v) => v.origin === 'explicit')).toEqual([]);
    // An inferred version is backed by observations only, and never listed in a profile.
    for (const link of inferred[0].evidence) expect(state.evidence[link.evidenceId].source.kind).toBe('observation');
    for (const p of state.profiles) expect(p.memoryVersionIds).not.toContain(inferred[0].versionId);
  });

  it('a malformed candidate among valid ones: the valid ones are stored, the malformed one recorded as such', async () => {
    class MixedExtractor implements MemoryExtractor {
      readonly kind = 'model' as const;
      async extract(request: ExtractionRequest): Promise<unknown[]> {
        if (request.evidence.source.kind !== 'message' || !request.text.includes('muted')) return [];
        const ok = (subject: string, value: string, supports: string) => ({
          subject,
          kind: 'preference',
          scope: 'long_term',
          origin: 'explicit',
          relation: 'states',
          claim: `Prefers ${value}`,
          value,
          supports,
        });
        return [
          ok('style.palette', 'muted colours', 'I usually prefer muted colours'),
          { subject: 'Not A Key!', kind: 'wish', claim: 42 },
          ok('style.typeface', 'serif type', 'serif type for headings'),
        ];
      }
    }
    const mixed = new MemoryRig(harness, new MixedExtractor());
    const { taskId } = await mixed.startTask('Plan the autumn catalogue');
    await mixed.say(taskId, 'I usually prefer muted colours, and serif type for headings.');
    const state = await mixed.state();
    const extraction = (await harness.read(mixed.stream))
      .filter((e) => e.type === 'MemoryExtractionRecorded')
      .map(
        (e) => e.data as { candidates: number; outcomes: Array<{ index: number; outcome: string; detail?: string }> },
      )
      .find((d) => d.candidates === 3)!;
    expect(extraction.outcomes.map((o) => [o.index, o.outcome])).toEqual([
      [0, 'created'],
      [1, 'malformed'],
      [2, 'created'],
    ]);
    expect(extraction.outcomes[1].detail).toMatch(/^schema:/);
    expect(
      Object.values(state.versions)
        .map((v) => v.subject)
        .sort(),
    ).toEqual(['style.palette', 'style.typeface']);
  });

  it('a correction creates a new version with validity; the old one stays answerable for its time', async () => {
    const { taskId } = await rig.startTask('Design our brand kit');
    await rig.say(taskId, M1);
    const before = Object.values((await rig.state()).versions)[0];
    harness.clock.advance(60_000);
    await rig.say(taskId, "That's wrong, it's green now.");
    const state = await rig.state();
    const chain = Object.values(state.versions).filter((v) => v.memoryId === before.memoryId);
    expect(chain.map((v) => [v.version, v.status, v.cause])).toEqual([
      [1, 'superseded', 'extracted'],
      [2, 'current', 'corrected'],
    ]);
    expect(chain[0].validTo).toBe(chain[1].validFrom);
    expect(await rig.text(chain[1].text!.hash)).toMatch(/green/i);
    // Asked for a time before the correction, the old version answers.
    const then = new Date(Date.parse(chain[1].validFrom) - 1_000).toISOString();
    expect(versionAt(state, before.memoryId, then)?.versionId).toBe(before.versionId);
    expect(versionAt(state, before.memoryId, chain[1].validFrom)?.versionId).toBe(chain[1].versionId);
  });

  it('a cascade interrupted after its apply is finished by the next run, once, with the same report', async () => {
    const { taskId } = await rig.startTask('Design our brand kit');
    const m1 = await rig.say(taskId, M1);
    await rig.say(taskId, M2);
    const forgettingId = randomUUID();
    const e1 = (await evidenceOf(m1)).evidenceId;
    await rig.decide([
      {
        type: 'RequestForgetting',
        forgettingId,
        target: { kind: 'evidence', evidenceIds: [e1] },
        requestedBy: rig.user,
      },
    ]);
    await rig.decide([{ type: 'ConfirmForgetting', forgettingId, confirmedBy: rig.user }]);
    // The first run dies right after its apply: the blob deletions fail.
    const realDelete = harness.blobs.delete.bind(harness.blobs);
    harness.blobs.delete = () => Promise.reject(new Error('disk gone'));
    await expect(rig.feed()).rejects.toThrow('disk gone');
    harness.blobs.delete = realDelete;
    expect((await rig.state()).forgettings[forgettingId].status).toBe('applied');

    const report = await rig.runner.forgettingConfirmed(rig.workspace, rig.user, forgettingId);
    const again = await rig.runner.forgettingConfirmed(rig.workspace, rig.user, forgettingId);
    expect(again).toEqual(report);
    const types = (await harness.read(rig.stream)).map((e) => e.type);
    expect(types.filter((t) => t === 'EvidenceRevoked')).toHaveLength(1);
    expect(types.filter((t) => t === 'ForgettingCompleted')).toHaveLength(1);
    for (const hash of report!.blobsDeleted) expect(await harness.blobs.has(hash)).toBe(false);
  });

  it('the offline extractor forms memories from Chinese too', async () => {
    const extractor = new OfflineMemoryExtractor();
    const zh = new MemoryRig(harness, extractor);
    const { taskId } = await zh.startTask('設計品牌視覺');
    await zh.say(taskId, '我們品牌的主色是藍色。');
    const versions = Object.values((await zh.state()).versions);
    expect(versions.map((v) => [v.subject, v.origin, v.status])).toEqual([
      ['brand.colour.main', 'explicit', 'current'],
    ]);
  });
});
