import { initialMemoryState, type EvidenceState, type MemoryState } from '@lomo/domain';
import { currentMemories, extractOffline, memoryFingerprint, planExtraction, type ExtractionPlan } from '@lomo/memory';
import { createHash } from 'node:crypto';
import type { Decision, MemoryCase } from './memory-cases';

/** One decision the planner made for the case's new evidence, in the terms of the labels. */
export interface Predicted {
  index: number;
  subject?: string;
  decision: Decision;
  origin?: 'explicit' | 'inferred';
  scope?: 'long_term' | 'task';
}

const TASK = 'aaaaaaaa-0000-4000-8000-000000000001';
const NOW = '2025-01-01T00:00:00.000Z';

const emptyState = (): MemoryState => initialMemoryState();

/**
 * The memory of one case, folded here from the plans (the domain decider is not needed to score
 * extraction): evidence, versions, supersessions and CONFIRM links, and the version texts the
 * BlobStore would hold.
 */
class CaseMemory {
  state = emptyState();
  texts = new Map<string, string>();
  observations: string[] = [];
  /** The candidates of the last step, for the subjects of outcomes that made no version. */
  lastRaw: readonly unknown[] = [];
  private ids = 0;
  readonly newId = () => `00000000-0000-4000-8000-${String(++this.ids).padStart(12, '0')}`;

  record(kind: 'message' | 'observation', text: string, inTask: boolean): EvidenceState {
    const ordinal = this.state.evidenceCount + 1;
    const evidenceId = this.newId();
    const source: EvidenceState['source'] =
      kind === 'observation'
        ? { kind, taskId: TASK, turnId: this.newId(), callId: `call-${ordinal}`, tool: 'image.generate' }
        : { kind, messageId: this.newId(), language: 'en', ...(inTask ? { taskId: TASK } : {}) };
    const evidence: EvidenceState = {
      evidenceId,
      source,
      at: NOW,
      fingerprint: createHash('sha256').update(text).digest('hex'),
      ordinal,
      revoked: false,
      extracted: false,
      copiedTo: [],
    };
    this.state = {
      ...this.state,
      evidence: { ...this.state.evidence, [evidenceId]: evidence },
      evidenceCount: ordinal,
    };
    return evidence;
  }

  apply(plan: ExtractionPlan): void {
    const versions = { ...this.state.versions };
    const memories = { ...this.state.memories };
    for (const s of plan.supersessions) {
      versions[s.versionId] = {
        ...versions[s.versionId]!,
        status: 'superseded',
        supersededBy: s.byVersionId,
        supersededReason: s.reason,
        validTo: s.validTo ?? null,
      };
    }
    for (const c of plan.confirmations) {
      const v = versions[c.versionId]!;
      versions[c.versionId] = { ...v, evidence: [...v.evidence, { evidenceId: c.evidenceId, role: 'CONFIRM' }] };
    }
    for (const d of plan.versions) {
      this.texts.set(d.versionId, d.text);
      versions[d.versionId] = {
        ...d,
        text: { hash: '0'.repeat(64), bytes: d.text.length, contentType: 'text/plain' },
        validTo: d.validTo ?? null,
        status: 'current',
        supersededBy: null,
        supersededReason: null,
      };
      const chain = memories[d.memoryId];
      memories[d.memoryId] = {
        memoryId: d.memoryId,
        subject: d.subject,
        scope: d.scope,
        versionIds: [...(chain?.versionIds ?? []), d.versionId],
      };
    }
    this.state = { ...this.state, versions, memories };
  }

  /** Extracts and plans one piece of evidence (the offline rules unless `raw` is given), applies it. */
  step(kind: 'message' | 'observation', text: string, inTask: boolean, raw?: readonly unknown[]): ExtractionPlan {
    const evidence = this.record(kind, text, inTask);
    const standing = currentMemories(this.state, (id) => this.texts.get(id));
    const request = { evidence, text, standing, recentObservations: [...this.observations].reverse() };
    this.lastRaw = raw ?? extractOffline(request);
    const plan = planExtraction({
      evidence,
      text,
      raw: this.lastRaw,
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
}

const DECISION_OF: Record<string, Decision> = {
  created: 'create',
  refined: 'refine',
  corrected: 'correct',
  confirmed: 'confirm',
  ignored: 'ignore',
  malformed: 'malformed',
  unsupported: 'unsupported',
  conflicting: 'conflicting',
  suppressed: 'suppressed',
};

/** Replays the case's prior evidence, then decides its input; what was decided, per candidate. */
export function runCase(c: MemoryCase): { predicted: Predicted[]; plan: ExtractionPlan } {
  const memory = new CaseMemory();
  for (const p of c.prior) memory.step(p.kind, p.text, p.inTask);
  // A forgetting before the input covers the evidence so far (+1 when it came after the input).
  const through = memory.state.evidenceCount + 1;
  memory.state = {
    ...memory.state,
    suppressions: c.suppress.map((s) => ({
      fingerprint: memoryFingerprint(s.subject, s.value),
      throughEvidence: s.coversInput ? through : through - 1,
      forgettingId: 'f',
    })),
  };
  const plan = memory.step(c.input.kind, c.input.text, c.input.inTask, c.raw);
  const rawOf = memory.lastRaw;
  const predicted = plan.outcomes.map((o): Predicted => {
    const version = o.versionId ? memory.state.versions[o.versionId] : undefined;
    const candidate = rawOf[o.index] as { subject?: unknown; origin?: unknown; scope?: unknown } | undefined;
    const subject = version?.subject ?? (typeof candidate?.subject === 'string' ? candidate.subject : undefined);
    const origin =
      version?.origin ?? (candidate?.origin === 'inferred' ? 'inferred' : candidate ? 'explicit' : undefined);
    const scope = version?.scope.kind ?? (candidate?.scope === 'task' ? 'task' : candidate ? 'long_term' : undefined);
    return { index: o.index, decision: DECISION_OF[o.outcome]!, subject, origin, scope };
  });
  return { predicted: predicted.length > 0 ? predicted : [{ index: -1, decision: 'ignore' }], plan };
}
