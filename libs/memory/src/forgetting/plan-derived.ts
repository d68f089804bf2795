import {
  currentProfile,
  currentVersion,
  lastProfileVersion,
  type EvidenceState,
  type ForgettingScope,
  type MemoryState,
  type MemoryVersionState,
} from '@lomo/domain';
import type {
  PlannedProfile,
  PlannedSummary,
  PlannedText,
  PlannedVersion,
  RenderProfile,
  RenderSummary,
  StandingMemory,
} from './forgetting-plan';

const MAX_PROFILE_ENTRIES = 100;

/** What stands once the cascade applies, per memory: a re-extracted version, or the current one not purged. */
export class StandingAfter {
  private readonly reextracted = new Map<string, PlannedVersion>();
  private readonly texts: Map<string, string>;

  constructor(
    private readonly state: MemoryState,
    private readonly purged: ReadonlySet<string>,
    versions: readonly PlannedVersion[],
    texts: readonly PlannedText[],
  ) {
    for (const v of versions) this.reextracted.set(v.data.memoryId, v);
    this.texts = new Map(texts.map((t) => [t.key, t.text]));
  }

  /** Every re-extracted version, as it will stand. */
  drafts(): StandingMemory[] {
    return [...this.reextracted.values()].map((draft) => ({
      ...draft.data,
      text: null,
      draftText: this.texts.get(draft.textKey) ?? '',
    }));
  }

  /** The standing replacement for a listed version: itself if it still stands, else its memory's standing version. */
  replacement(versionId: string): StandingMemory | null {
    const listed = this.state.versions[versionId];
    if (!listed) return null;
    if (listed.status === 'current' && !this.purged.has(versionId)) return fromState(listed);
    const draft = this.reextracted.get(listed.memoryId);
    if (draft) return { ...draft.data, text: null, draftText: this.texts.get(draft.textKey) ?? '' };
    const current = currentVersion(this.state, listed.memoryId);
    return current && !this.purged.has(current.versionId) ? fromState(current) : null;
  }

  /** For a summary: the listed version if it was not purged (a superseded one is still history), else its replacement. */
  forSummary(versionId: string): StandingMemory | null {
    const listed = this.state.versions[versionId];
    if (listed && listed.status !== 'purged' && !this.purged.has(versionId)) return fromState(listed);
    return this.replacement(versionId);
  }
}

const fromState = (v: MemoryVersionState): StandingMemory => ({
  versionId: v.versionId,
  memoryId: v.memoryId,
  subject: v.subject,
  kind: v.kind,
  scope: v.scope,
  origin: v.origin,
  text: v.text,
  draftText: null,
});

const uniqueBy = (items: (StandingMemory | null)[]) => {
  const seen = new Set<string>();
  return items.filter((m): m is StandingMemory => m !== null && !seen.has(m.versionId) && !!seen.add(m.versionId));
};

/**
 * A new profile version when the one in force lists a purged version, so no later step uses the old
 * snapshot. It keeps the old profile's selection: each entry stays, or is replaced by what now
 * stands in its memory, if that is still explicit and long-term (a guess never enters the profile).
 */
export function planProfile(
  state: MemoryState,
  scope: ForgettingScope,
  standing: StandingAfter,
  forgettingId: string,
  render: RenderProfile,
): { profile: PlannedProfile; text: PlannedText } | null {
  const current = currentProfile(state);
  if (!scope.profileAffected || current === undefined) return null;
  // What the profile listed, each entry by what stands for it now, and what re-extraction found
  // on the person's own remaining words (a new memory, e.g. a pairing once a main colour is gone).
  const entries = uniqueBy([...current.memoryVersionIds.map((id) => standing.replacement(id)), ...standing.drafts()])
    .filter((m) => m.origin === 'explicit' && m.scope.kind === 'long_term')
    .slice(0, MAX_PROFILE_ENTRIES);
  const version = lastProfileVersion(state) + 1;
  const textKey = `profile:${version}`;
  return {
    profile: {
      textKey,
      data: {
        version,
        memoryVersionIds: entries.map((m) => m.versionId),
        reason: 'forgetting',
        forgettingId,
      },
    },
    text: { key: textKey, text: render(entries) },
  };
}

/** Each invalidated summary that was current is rebuilt from its remaining sources. */
export function planSummaries(
  state: MemoryState,
  scope: ForgettingScope,
  standing: StandingAfter,
  revoked: ReadonlySet<string>,
  newId: () => string,
  render: RenderSummary,
): { summaries: PlannedSummary[]; texts: PlannedText[] } {
  const summaries: PlannedSummary[] = [];
  const texts: PlannedText[] = [];
  for (const summary of scope.summariesToInvalidate) {
    if (summary.status !== 'current') continue;
    const evidence = summary.evidenceIds
      .map((id) => state.evidence[id])
      .filter((e): e is EvidenceState => e !== undefined && !e.revoked && !revoked.has(e.evidenceId));
    const memories = uniqueBy(summary.memoryVersionIds.map((id) => standing.forSummary(id)));
    const text = render({ summary, evidence, memories });
    if (text === null) continue;
    const summaryId = newId();
    const textKey = `summary:${summaryId}`;
    summaries.push({
      textKey,
      data: {
        summaryId,
        taskId: summary.taskId,
        evidenceIds: evidence.map((e) => e.evidenceId),
        memoryVersionIds: memories.map((m) => m.versionId),
        supersedes: summary.summaryId,
      },
    });
    texts.push({ key: textKey, text });
  }
  return { summaries, texts };
}
