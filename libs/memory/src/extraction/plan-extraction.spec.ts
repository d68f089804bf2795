import { initialMemoryState, type EvidenceState, type MemoryState } from '@lomo/domain';
import { currentMemories } from './current-memories';
import { memoryFingerprint } from './memory-candidate';
import { extractOffline } from './offline-extractor';
import { planExtraction, toRecordExtraction, type ExtractionPlan } from './plan-extraction';

const TASK = 'aaaaaaaa-0000-4000-8000-000000000001';
const NOW = '2025-03-01T10:00:00.000Z';

/** A person's memory folded from plans, the way the decider will append them. */
class Memory {
  state: MemoryState = initialMemoryState();
  texts = new Map<string, string>();
  observations: string[] = [];
  private n = 0;
  newId = () => `00000000-0000-4000-8000-${String(++this.n).padStart(12, '0')}`;

  say(text: string, raw?: unknown[]): ExtractionPlan {
    return this.step('message', text, raw);
  }
  observe(text: string, raw?: unknown[]): ExtractionPlan {
    return this.step('observation', text, raw);
  }

  private step(kind: 'message' | 'observation', text: string, raw?: unknown[]): ExtractionPlan {
    const ordinal = this.state.evidenceCount + 1;
    const evidence: EvidenceState = {
      evidenceId: this.newId(),
      source:
        kind === 'message'
          ? { kind, messageId: this.newId(), taskId: TASK, language: 'en' }
          : { kind, taskId: TASK, turnId: this.newId(), callId: `c${ordinal}`, tool: 'image.generate' },
      at: NOW,
      fingerprint: 'f'.repeat(64),
      ordinal,
      revoked: false,
      extracted: false,
      copiedTo: [],
    };
    this.state = {
      ...this.state,
      evidence: { ...this.state.evidence, [evidence.evidenceId]: evidence },
      evidenceCount: ordinal,
    };
    const standing = currentMemories(this.state, (id) => this.texts.get(id));
    const candidates =
      raw ?? extractOffline({ evidence, text, standing, recentObservations: [...this.observations].reverse() });
    const plan = planExtraction({
      evidence,
      text,
      raw: candidates,
      extractor: raw ? 'model' : 'offline_rules',
      state: this.state,
      standing,
      now: NOW,
      newId: this.newId,
    });
    this.apply(plan);
    if (kind === 'observation') this.observations.push(text);
    return plan;
  }

  private apply(plan: ExtractionPlan): void {
    const versions = { ...this.state.versions };
    const memories = { ...this.state.memories };
    for (const s of plan.supersessions)
      versions[s.versionId] = {
        ...versions[s.versionId]!,
        status: 'superseded',
        supersededReason: s.reason,
        validTo: s.validTo ?? null,
      };
    for (const c of plan.confirmations) {
      const v = versions[c.versionId]!;
      versions[c.versionId] = { ...v, evidence: [...v.evidence, { evidenceId: c.evidenceId, role: 'CONFIRM' }] };
    }
    for (const d of plan.versions) {
      this.texts.set(d.versionId, d.text);
      const text = { hash: '0'.repeat(64), bytes: 1, contentType: 'text/plain' };
      versions[d.versionId] = {
        ...d,
        text,
        validTo: null,
        status: 'current',
        supersededBy: null,
        supersededReason: null,
      };
      const ids = memories[d.memoryId]?.versionIds ?? [];
      memories[d.memoryId] = {
        memoryId: d.memoryId,
        subject: d.subject,
        scope: d.scope,
        versionIds: [...ids, d.versionId],
      };
    }
    this.state = { ...this.state, versions, memories };
  }
}

const candidate = (over: Record<string, unknown> = {}) => ({
  subject: 'brand.colour.main',
  kind: 'fact',
  scope: 'long_term',
  origin: 'explicit',
  relation: 'states',
  claim: "The brand's main colour is blue.",
  value: 'blue',
  supports: "Our brand's main colour is blue",
  ...over,
});

describe('planExtraction', () => {
  it('keeps the valid candidates and records a malformed one among them as malformed', () => {
    const m = new Memory();
    const muted = candidate({
      subject: 'style.palette',
      kind: 'preference',
      claim: 'Prefers muted colours.',
      value: 'muted',
      supports: 'I usually prefer muted colours',
    });
    const plan = m.say("Our brand's main colour is blue and I usually prefer muted colours.", [
      candidate(),
      candidate({ subject: 'Brand Colour' }),
      muted,
      'not even an object',
    ]);
    expect(plan.outcomes.map((o) => o.outcome)).toEqual(['created', 'malformed', 'created', 'malformed']);
    expect(plan.versions.map((v) => v.subject)).toEqual(['brand.colour.main', 'style.palette']);
    expect(plan.outcomes[1]!.detail).toMatch(/^schema:subject/);
    const command = toRecordExtraction(
      plan,
      Object.fromEntries(
        plan.versions.map((v) => [v.versionId, { hash: 'a'.repeat(64), bytes: 3, contentType: 'text/plain' }]),
      ),
    );
    expect(command.extraction.candidates).toBe(4);
    expect(JSON.stringify(command.extraction)).not.toContain('blue');
  });

  it('walks the article example: create, refine (REFINE, v1 superseded), confirm without a new version, correct with validity', () => {
    const m = new Memory();
    const v1 = m.say("Our brand's main colour is blue.").versions[0]!;
    expect(v1).toMatchObject({ version: 1, cause: 'extracted', origin: 'explicit', evidence: [{ role: 'ORIGIN' }] });

    const refined = m.say('Blue with off-white is softer.');
    const v2 = refined.versions[0]!;
    expect(v2).toMatchObject({ memoryId: v1.memoryId, version: 2, cause: 'refined', derivedFrom: [v1.versionId] });
    expect(v2.evidence.map((e) => e.role)).toEqual(['ORIGIN', 'REFINE']);
    expect(refined.supersessions).toEqual([expect.objectContaining({ versionId: v1.versionId, reason: 'refined' })]);

    const confirmed = m.say('Yes, blue is right.');
    expect(confirmed.versions).toEqual([]);
    expect(confirmed.confirmations).toEqual([expect.objectContaining({ versionId: v2.versionId })]);

    const corrected = m.say("That's wrong, it's green now.");
    const v3 = corrected.versions[0]!;
    expect(v3).toMatchObject({ version: 3, cause: 'corrected', validFrom: NOW, evidence: [{ role: 'ORIGIN' }] });
    expect(corrected.supersessions).toEqual([
      expect.objectContaining({ versionId: v2.versionId, reason: 'corrected', validTo: NOW }),
    ]);
  });

  it("infers a style from several generations, never as explicit, and never over the person's words", () => {
    const m = new Memory();
    expect(m.observe('cyberpunk city skyline').outcomes).toEqual([]);
    m.observe('cyberpunk courier portrait');
    const third = m.observe('a cyberpunk street at night');
    expect(third.versions).toEqual([expect.objectContaining({ subject: 'style.visual', origin: 'inferred' })]);
    expect(m.observe('cyberpunk market').outcomes[0]!.outcome).toBe('confirmed');
    // The person's own words start an explicit chain; the inferred one stays inferred.
    const said = m.say('I love cyberpunk.');
    expect(said.versions).toEqual([expect.objectContaining({ origin: 'explicit', cause: 'extracted' })]);
    expect(said.versions[0]!.memoryId).not.toBe(third.versions[0]!.memoryId);
    expect(m.observe('cyberpunk harbour').outcomes[0]).toMatchObject({ outcome: 'ignored', detail: 'explicit_stands' });
    // A model claiming an explicit preference from an observation is unsupported.
    expect(
      m.observe('cyberpunk bar', [
        candidate({ subject: 'style.visual', kind: 'preference', value: 'cyberpunk', supports: 'cyberpunk' }),
      ]).outcomes[0],
    ).toMatchObject({
      outcome: 'unsupported',
      detail: 'explicit_from_observation',
    });
  });

  it('suppresses a forgotten claim from covered evidence but not a new later statement', () => {
    const m = new Memory();
    const fingerprint = memoryFingerprint('brand.colour.main', 'blue');
    m.state = { ...m.state, suppressions: [{ fingerprint, throughEvidence: 1, forgettingId: 'f1' }] };
    // Evidence 1 is covered (a re-extraction of the forgotten message)...
    expect(m.say("Our brand's main colour is blue.", [candidate()]).outcomes[0]).toMatchObject({
      outcome: 'suppressed',
    });
    // ...evidence 2 is the person saying it anew.
    expect(m.say('Use blue again for our brand from now on.').outcomes[0]).toMatchObject({ outcome: 'created' });
  });

  it('tells a task-local request from a long-term preference', () => {
    const plan = new Memory().say('I usually prefer muted colours, but this time try saturated red.');
    expect(plan.versions.map((v) => [v.subject, v.scope.kind])).toEqual([
      ['style.palette', 'long_term'],
      ['style.colour', 'task'],
    ]);
  });

  it('marks two candidates disagreeing on one subject as conflicting, and a quote not in the evidence as unsupported', () => {
    const plan = new Memory().say("Our brand's main colour is blue, or maybe green.", [
      candidate(),
      candidate({ value: 'green', supports: 'maybe green' }),
      candidate({ subject: 'style.colour', value: 'red', supports: 'I love red' }),
    ]);
    expect(plan.outcomes.map((o) => o.outcome)).toEqual(['conflicting', 'conflicting', 'unsupported']);
  });

  it('handles Chinese in both scripts: create, refine, confirm, correct, task-local', () => {
    const m = new Memory();
    const v1 = m.say('我们品牌的主色是蓝色。').versions[0]!;
    expect(v1.text).toContain('brand.colour.main = blue');
    expect(m.say('我們品牌的主色是藍色。').outcomes[0]!.outcome).toBe('confirmed');
    expect(m.say('藍色配米白色更柔和。').outcomes[0]!.outcome).toBe('refined');
    expect(m.say('對，藍色沒錯。').outcomes[0]!.outcome).toBe('confirmed');
    expect(m.say('不是藍色了，改成綠色。').outcomes[0]!.outcome).toBe('corrected');
    expect(m.say('我通常喜歡低飽和度的配色。').versions[0]).toMatchObject({
      subject: 'style.palette',
      scope: { kind: 'long_term' },
    });
    expect(m.say('這次先試試高飽和的紅色。').versions[0]).toMatchObject({
      subject: 'style.colour',
      scope: { kind: 'task', taskId: TASK },
    });
    expect(m.say('我们品牌的主色用蓝色好吗？').outcomes).toEqual([]);
  });
});
