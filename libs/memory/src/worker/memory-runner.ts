import type { BlobStore } from '@lomo/blobs';
import {
  ConcurrencyError,
  deterministicUuid,
  streams,
  type Clock,
  type EventEnvelope,
  type EvidenceSource,
  type ForgettingReport,
  type IdGenerator,
  type TestControl,
  type WriteMetadata,
} from '@lomo/contracts';
import {
  DomainError,
  currentProfile,
  lastProfileVersion,
  type MemoryCommand,
  type MemoryState,
  type MemoryVersionState,
} from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import {
  currentMemories,
  evidenceFingerprint,
  parseMemoryText,
  planExtraction,
  toRecordExtraction,
  type MemoryExtractor,
} from '../extraction';
import type { MemoryIndexer } from '../recall';
import { MemoryStreamCache, renderProfile, selectProfileVersions } from '../profile';
import { EvidenceTexts, observationText } from './evidence-texts';
import { decideOnMemory } from '../memory-stream';
import { renderEpisodeSummary } from './render-texts';
import { runForgetting } from './run-forgetting';

const TEXT = 'text/plain';
/** Generation calls whose prompts say something about the person's taste (inferred evidence only). */
export const OBSERVED_TOOLS = new Set(['image.generate', 'image.edit', 'video.generate', 'model3d.generate']);
/** Earlier observations an extractor sees beside a new one (several alike may show a taste). */
const OBSERVATION_WINDOW = 10;
const MAX_ATTEMPTS = 5;
/** Blob reads in flight at once. */
const BLOB_READS = 32;

export interface MemoryRunnerDeps {
  store: EventStore;
  blobs: BlobStore;
  extractor: MemoryExtractor;
  /** Keeps the recall index equal to the memory state; absent: nothing is indexed. */
  indexer?: MemoryIndexer;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** Drills' mutation switches (libs/platform/src/test-control/README.md); absent: every safeguard on. */
  testControl?: Pick<TestControl, 'mutation'>;
}

export const evidenceIdForMessage = (messageId: string) => deterministicUuid('lomo.memory-evidence', messageId);
export const evidenceIdForCall = (callId: string) => deterministicUuid('lomo.memory-evidence', callId);

/**
 * Memory's background work (article §7.1, §7.4), each piece idempotent so a redelivery or a crash
 * repeats it harmlessly: a delivered message (or an observed generation call) becomes evidence;
 * extraction proposes candidates, checked and decided one by one; the profile and the task's
 * episode summary follow what stands; the recall index is kept equal to the state. A confirmed
 * forgetting runs its cascade (run-forgetting.ts). Failures throw typed errors for the consumer's
 * retries and dead letters; no turn ever waits on any of this.
 */
export class MemoryRunner {
  readonly texts: EvidenceTexts;
  private readonly streams: MemoryStreamCache;

  constructor(private readonly deps: MemoryRunnerDeps) {
    this.texts = new EvidenceTexts(deps.store);
    this.streams = new MemoryStreamCache(deps.store);
  }

  /** `MessageDeliveredToInbox` on a task stream: the sender's words become their evidence. */
  async messageDelivered(event: EventEnvelope): Promise<void> {
    const data = event.data as { messageId: string; text: string; language: string; from?: string };
    if (data.from === undefined) return;
    const taskId = event.metadata.streamId.slice('task-'.length);
    const source: EvidenceSource = { kind: 'message', messageId: data.messageId, taskId, language: data.language };
    const evidenceId = evidenceIdForMessage(data.messageId);
    // The same message delivered to another task (a fork's copy): noted in the same decision, so a
    // forgetting of it reaches that task too; a no-op for the evidence's own task.
    await this.record(event, data.from, evidenceId, source, data.text, [
      { type: 'NoteEvidenceCopy', evidenceId, taskId },
    ]);
  }

  /** `ModelStepCommitted` on a turn stream: each generation call is an observation for the task's person. */
  async stepCommitted(event: EventEnvelope): Promise<void> {
    const data = event.data as { toolCallIntents: { callId: string; tool: string; arguments: unknown }[] };
    const observed = data.toolCallIntents.filter((i) => OBSERVED_TOOLS.has(i.tool));
    if (observed.length === 0) return;
    const turnId = event.metadata.streamId.slice('turn-'.length);
    const turn = await this.deps.store.readStream(streams.turn(turnId), { maxCount: 1 });
    const taskId = (turn[0]?.data as { taskId?: string } | undefined)?.taskId;
    if (taskId === undefined) return;
    const person = await this.personOf(taskId);
    if (person === null) return;
    for (const intent of observed) {
      const source: EvidenceSource = { kind: 'observation', taskId, turnId, callId: intent.callId, tool: intent.tool };
      await this.record(event, person, evidenceIdForCall(intent.callId), source, observationText(intent.arguments));
    }
  }

  /** `ForgettingConfirmed` on a memory stream (or a forgetting left unfinished by a crash). */
  async forgettingConfirmed(
    workspaceId: string,
    userId: string,
    forgettingId: string,
  ): Promise<ForgettingReport | null> {
    return runForgetting(this, workspaceId, userId, forgettingId);
  }

  // ---- shared with the forgetting runner ------------------------------------------------------

  get runnerDeps(): MemoryRunnerDeps {
    return this.deps;
  }

  metadata(workspaceId: string, cause?: EventEnvelope): WriteMetadata {
    return {
      correlationId: cause?.metadata.correlationId ?? this.deps.ids.uuid(),
      causationId: cause?.metadata.eventId ?? null,
      workspaceId,
      actor: { kind: 'system', component: 'memory' },
    };
  }

  /** The person's memory state now: folded once, then only the events after the cached revision. */
  async fold(workspaceId: string, userId: string): Promise<MemoryState> {
    return (await this.streams.state(workspaceId, userId)).state;
  }

  /** Decides and appends on the person's memory stream; a refusal propagates (the caller re-plans). */
  async decide(
    workspaceId: string,
    userId: string,
    commands: MemoryCommand[],
    cause?: EventEnvelope,
    metadata: WriteMetadata = this.metadata(workspaceId, cause),
  ) {
    // From the cached fold: a person with 10 000 memories has a ~30 000-event stream, which is
    // read and folded once per process, not per decision.
    const known = this.streams.known(workspaceId, userId);
    const result = await decideOnMemory(this.deps, { workspaceId, userId }, () => commands, { metadata }, known);
    if (result.revision !== 'no_stream') this.streams.remember(workspaceId, userId, result.state, result.revision);
    return result;
  }

  async putText(text: string) {
    return this.deps.blobs.put(text, TEXT);
  }

  async textsByHash(hashes: Iterable<string>): Promise<Map<string, string>> {
    // A few reads at a time (a filesystem store waits on each), never thousands of open files.
    const unique = [...new Set(hashes)];
    const out = new Map<string, string>();
    for (let i = 0; i < unique.length; i += BLOB_READS) {
      const chunk = unique.slice(i, i + BLOB_READS);
      const bodies = await Promise.all(chunk.map((hash) => this.deps.blobs.get(hash)));
      chunk.forEach((hash, j) => {
        const body = bodies[j];
        if (body !== undefined) out.set(hash, body.toString('utf8'));
      });
    }
    return out;
  }

  /** After any change: the profile and the recall index follow what stands now. */
  async settle(workspaceId: string, userId: string, reason: 'memories_changed'): Promise<MemoryState> {
    let state = await this.fold(workspaceId, userId);
    const listed = selectProfileVersions(Object.values(state.versions));
    const profile = currentProfile(state);
    const same =
      profile !== undefined &&
      profile.memoryVersionIds.length === listed.length &&
      listed.every((v) => profile.memoryVersionIds.includes(v.versionId));
    if (!same && (profile !== undefined || listed.length > 0)) {
      const texts = await this.textsByHash(listed.flatMap((v) => (v.text === null ? [] : [v.text.hash])));
      const body = renderProfile(
        listed.flatMap((v) => {
          const t = v.text === null ? undefined : texts.get(v.text.hash);
          return t === undefined ? [] : [{ subject: v.subject, text: parseMemoryText(t).claim }];
        }),
      );
      const ref = await this.putText(body);
      const result = await this.decide(workspaceId, userId, [
        {
          type: 'PublishProfile',
          version: lastProfileVersion(state) + 1,
          text: ref,
          memoryVersionIds: listed.map((v) => v.versionId),
          reason,
        },
      ]);
      if (result.changed) state = await this.fold(workspaceId, userId);
    }
    await this.deps.indexer?.syncPerson({ workspaceId, userId }, state);
    return state;
  }

  // ---- extraction ------------------------------------------------------------------------------

  private async record(
    cause: EventEnvelope,
    userId: string,
    evidenceId: string,
    source: EvidenceSource,
    text: string,
    /** Decided with the evidence, on the state it leaves (NoteEvidenceCopy). */
    also: readonly MemoryCommand[] = [],
  ): Promise<void> {
    const { workspaceId } = cause.metadata;
    const fingerprint = evidenceFingerprint(text);
    await this.decide(
      workspaceId,
      userId,
      [{ type: 'RecordEvidence', evidenceId, source, at: cause.metadata.occurredAt, fingerprint }, ...also],
      cause,
    );
    for (let attempt = 1; ; attempt += 1) {
      try {
        const changed = await this.extract(cause, userId, evidenceId, text);
        if (!changed) return;
        if (source.kind === 'message' && source.taskId !== undefined)
          await this.summarizeTask(workspaceId, userId, source.taskId);
        // The profile, then the recall index once, for everything this evidence changed.
        await this.settle(workspaceId, userId, 'memories_changed');
        return;
      } catch (error) {
        // Another extraction for this person got in between: plan again on the fresh state.
        const raced = error instanceof ConcurrencyError || (error instanceof DomainError && attempt < MAX_ATTEMPTS);
        if (!raced || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** One extraction for one piece of evidence; false when it had been done already. */
  private async extract(cause: EventEnvelope, userId: string, evidenceId: string, text: string): Promise<boolean> {
    const { workspaceId } = cause.metadata;
    const state = await this.fold(workspaceId, userId);
    const evidence = state.evidence[evidenceId];
    if (evidence === undefined || evidence.extracted || evidence.revoked) return false;
    const standingTexts = await this.textsByHash(
      Object.values(state.versions).flatMap((v) => (v.status === 'current' && v.text !== null ? [v.text.hash] : [])),
    );
    const standing = currentMemories(state, (versionId) => {
      const ref = state.versions[versionId]?.text;
      return ref == null ? undefined : standingTexts.get(ref.hash);
    });
    const recentObservations = await this.recentObservations(state, evidenceId);
    const raw = await this.deps.extractor.extract({ evidence, text, standing, recentObservations });
    const plan = planExtraction({
      evidence,
      text,
      raw,
      extractor: this.deps.extractor.kind,
      state,
      standing,
      now: this.deps.clock.now().toISOString(),
      newId: () => this.deps.ids.uuid(),
    });
    const refs: Record<string, Awaited<ReturnType<BlobStore['put']>>> = {};
    for (const draft of plan.versions) refs[draft.versionId] = await this.putText(draft.text);
    const result = await this.decide(workspaceId, userId, [toRecordExtraction(plan, refs)], cause);
    this.deps.logger.debug(
      {
        workspaceId,
        evidenceId,
        candidates: plan.candidates,
        outcomes: plan.outcomes.map((o) => o.outcome),
        changed: result.changed,
      },
      'memory extraction recorded',
    );
    return result.changed && (plan.versions.length > 0 || plan.confirmations.length > 0);
  }

  private async recentObservations(state: MemoryState, exceptId: string): Promise<string[]> {
    const earlier = Object.values(state.evidence)
      .filter((e) => e.source.kind === 'observation' && e.evidenceId !== exceptId && !e.revoked)
      .sort((a, b) => b.ordinal - a.ordinal)
      .slice(0, OBSERVATION_WINDOW);
    const cache = new Map<string, EventEnvelope[]>();
    const out: string[] = [];
    for (const e of earlier) {
      const text = await this.texts.textOf(e.source, cache);
      if (text !== undefined) out.push(text);
    }
    return out;
  }

  /** The task's episode summary: what the person settled there, superseding the task's previous one. */
  async summarizeTask(workspaceId: string, userId: string, taskId: string): Promise<void> {
    const state = await this.fold(workspaceId, userId);
    const fromTask = (v: MemoryVersionState) =>
      v.status === 'current' &&
      v.evidence.some((l) => {
        const e = state.evidence[l.evidenceId];
        return e !== undefined && e.source.kind === 'message' && e.source.taskId === taskId && !e.revoked;
      });
    const versions = Object.values(state.versions).filter(fromTask);
    const texts = await this.textsByHash(versions.flatMap((v) => (v.text === null ? [] : [v.text.hash])));
    const claims = versions.flatMap((v) => {
      const t = v.text === null ? undefined : texts.get(v.text.hash);
      return t === undefined ? [] : [parseMemoryText(t).claim];
    });
    const body = renderEpisodeSummary(taskId, claims);
    if (body === null) return;
    const previous = Object.values(state.summaries).find((s) => s.taskId === taskId && s.status === 'current');
    const ref = await this.putText(body);
    if (previous !== undefined && previous.text?.hash === ref.hash) return;
    const evidenceIds = [
      ...new Set(
        versions.flatMap((v) => v.evidence.map((l) => l.evidenceId)).filter((id) => !state.evidence[id]?.revoked),
      ),
    ];
    await this.decide(workspaceId, userId, [
      {
        type: 'WriteEpisodeSummary',
        summaryId: this.deps.ids.uuid(),
        taskId,
        text: ref,
        evidenceIds,
        memoryVersionIds: versions.map((v) => v.versionId),
        ...(previous !== undefined ? { supersedes: previous.summaryId } : {}),
      },
    ]);
  }

  /** The person a task works for: the sender of its latest message that names one. */
  private async personOf(taskId: string): Promise<string | null> {
    const events = await this.deps.store.readStream(streams.task(taskId));
    for (let i = events.length - 1; i >= 0; i -= 1) {
      const e = events[i];
      if (e.type !== 'MessageDeliveredToInbox') continue;
      const from = (e.data as { from?: string }).from;
      if (from !== undefined) return from;
    }
    return null;
  }
}
