import type {
  EpisodeSummaryState,
  EvidenceState,
  MemoryState,
  MemoryVersionState,
  ProfileVersionState,
} from './memory-state';
import { isProducedByFold } from './memory-evolve';

/** Links that carry a version's content: a version stands or falls with its ORIGIN and REFINE evidence. */
export const isSupporting = (role: string): boolean => role === 'ORIGIN' || role === 'REFINE';

/** The version of a memory that stands now (not superseded, not purged), if any. */
export function currentVersion(state: MemoryState, memoryId: string): MemoryVersionState | undefined {
  const chain = state.memories[memoryId];
  if (!chain) return undefined;
  for (let i = chain.versionIds.length - 1; i >= 0; i--) {
    const version = state.versions[chain.versionIds[i]];
    if (version?.status === 'current') return version;
  }
  return undefined;
}

/** The highest version number a chain used, purged ones included: numbers continue past them. */
export function lastVersionNumber(state: MemoryState, memoryId: string): number {
  const chain = state.memories[memoryId];
  if (!chain) return 0;
  return chain.versionIds.reduce((max, id) => Math.max(max, state.versions[id]?.version ?? 0), 0);
}

/** Every version that stands now, in creation order. */
export function standingVersions(state: MemoryState): MemoryVersionState[] {
  return Object.values(state.versions).filter((v) => v.status === 'current');
}

/**
 * The version that answered for `at`: a corrected version stays the answer for the time it stood
 * (validFrom ≤ at < validTo); a purged one answers nothing.
 */
export function versionAt(state: MemoryState, memoryId: string, at: string): MemoryVersionState | undefined {
  const chain = state.memories[memoryId];
  if (!chain) return undefined;
  const t = Date.parse(at);
  const answering = chain.versionIds
    .map((id) => state.versions[id])
    .filter((v): v is MemoryVersionState => v !== undefined && v.status !== 'purged')
    .filter((v) => Date.parse(v.validFrom) <= t && (v.validTo === null || t < Date.parse(v.validTo)))
    .filter((v) => v.status === 'current' || v.supersededReason === 'corrected');
  return answering[answering.length - 1];
}

/** The profile version in force: the last one not purged. */
export function currentProfile(state: MemoryState): ProfileVersionState | undefined {
  for (let i = state.profiles.length - 1; i >= 0; i--) if (state.profiles[i].text !== null) return state.profiles[i];
  return undefined;
}

export const lastProfileVersion = (state: MemoryState): number =>
  state.profiles.reduce((max, p) => Math.max(max, p.version), 0);

/** Whether a version may enter the profile: standing, long-term, and said by the person. */
export const profileEligible = (v: MemoryVersionState): boolean =>
  v.status === 'current' && v.origin === 'explicit' && v.scope.kind === 'long_term';

/**
 * Whether a forgetting suppressed this claim for evidence up to `latestOrdinal`: evidence recorded
 * after the forgetting (the person saying it anew) is not covered.
 */
export function isSuppressed(state: MemoryState, fingerprint: string, latestOrdinal: number): boolean {
  return state.suppressions.some((s) => s.fingerprint === fingerprint && latestOrdinal <= s.throughEvidence);
}

/** The evidence a request to forget a memory revokes: what its versions stand on and is not revoked yet. */
export function forgettableEvidence(state: MemoryState, memoryId: string): string[] {
  const ids = new Set<string>();
  for (const versionId of state.memories[memoryId]?.versionIds ?? []) {
    const version = state.versions[versionId];
    if (!version || version.status === 'purged') continue;
    for (const link of version.evidence)
      if (isSupporting(link.role) && state.evidence[link.evidenceId]?.revoked === false) ids.add(link.evidenceId);
  }
  return [...ids];
}

/**
 * Who stands on what, built once per cascade so the walk is linear in the links, never a scan of
 * every version per revoked evidence (the benchmark runs at 10 000 memories).
 */
export interface DependencyIndex {
  /** Evidence → versions linking it as ORIGIN or REFINE (purged versions left out). */
  supportedBy: Map<string, string[]>;
  /** Evidence → versions linking it as CONFIRM. */
  confirmedBy: Map<string, string[]>;
  /** Parent version → versions derived from it. */
  children: Map<string, string[]>;
  /** Creation order of each version, for stable output. */
  order: Map<string, number>;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Indexes by the versions record they were built from (only records evolve made: see isProducedByFold). */
const indexes = new WeakMap<object, DependencyIndex>();

/**
 * The state's dependency index (read-only for its users). A pass over every version, so it is
 * kept per versions record: the forgetting runner, its planner and the decider checking the apply
 * share one at 10 000 memories instead of building three.
 */
export function dependencyIndex(state: MemoryState): DependencyIndex {
  const cacheable = isProducedByFold(state.versions);
  const known = cacheable ? indexes.get(state.versions) : undefined;
  if (known !== undefined) return known;
  const index = buildDependencyIndex(state);
  if (cacheable) indexes.set(state.versions, index);
  return index;
}

function buildDependencyIndex(state: MemoryState): DependencyIndex {
  const index: DependencyIndex = {
    supportedBy: new Map(),
    confirmedBy: new Map(),
    children: new Map(),
    order: new Map(),
  };
  let n = 0;
  for (const version of Object.values(state.versions)) {
    index.order.set(version.versionId, n++);
    if (version.status === 'purged') continue;
    for (const link of version.evidence)
      push(isSupporting(link.role) ? index.supportedBy : index.confirmedBy, link.evidenceId, version.versionId);
    for (const parent of version.derivedFrom) push(index.children, parent, version.versionId);
  }
  return index;
}

/**
 * Every version (not yet purged) that depends on the evidence: it links the evidence as ORIGIN or
 * REFINE, or derives, through any number of steps, from a version that does. A correction does
 * not depend on the version it corrects: it rests on the new words only (the old value was wrong
 * or has changed), so "that's wrong, it's pastel now" outlives forgetting the message that said
 * the old value. In creation order.
 */
export function versionsDependingOn(
  state: MemoryState,
  evidenceIds: Iterable<string>,
  index: DependencyIndex = dependencyIndex(state),
): MemoryVersionState[] {
  const found = new Set<string>();
  const queue: string[] = [];
  for (const id of evidenceIds) for (const v of index.supportedBy.get(id) ?? []) queue.push(v);
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (found.has(id) || state.versions[id]?.status === 'purged') continue;
    found.add(id);
    for (const child of index.children.get(id) ?? [])
      if (state.versions[child]?.cause !== 'corrected') queue.push(child);
  }
  return [...found]
    .sort((a, b) => (index.order.get(a) ?? 0) - (index.order.get(b) ?? 0))
    .map((id) => state.versions[id]);
}

/** What a forgetting of this evidence must reach, fixed by the state alone (decider and planner agree on it). */
export interface ForgettingScope {
  purged: MemoryVersionState[];
  /** CONFIRM links to the evidence on versions that stand on other evidence. */
  detached: { memoryId: string; versionId: string; evidenceId: string }[];
  /** Profile versions (not purged yet) that list a purged version. */
  profilesToPurge: ProfileVersionState[];
  /** Whether the profile in force lists a purged version, so a new one must be published. */
  profileAffected: boolean;
  /** Summaries (not invalidated yet) made from the evidence or a purged version. */
  summariesToInvalidate: EpisodeSummaryState[];
  /** Memories whose standing version is purged: re-extraction may give them a new one. */
  chainsLosingCurrent: string[];
}

export function forgettingScope(
  state: MemoryState,
  evidenceIds: readonly string[],
  index: DependencyIndex = dependencyIndex(state),
): ForgettingScope {
  const revoked = new Set(evidenceIds);
  const purged = versionsDependingOn(state, revoked, index);
  const purgedIds = new Set(purged.map((v) => v.versionId));
  const detached: ForgettingScope['detached'] = [];
  for (const evidenceId of revoked)
    for (const versionId of index.confirmedBy.get(evidenceId) ?? [])
      if (!purgedIds.has(versionId))
        detached.push({ memoryId: state.versions[versionId].memoryId, versionId, evidenceId });
  const listsPurged = (ids: readonly string[]) => ids.some((id) => purgedIds.has(id));
  const profilesToPurge = state.profiles.filter((p) => p.text !== null && listsPurged(p.memoryVersionIds));
  const current = currentProfile(state);
  const summariesToInvalidate = Object.values(state.summaries).filter(
    (s) =>
      s.status !== 'invalidated' && (listsPurged(s.memoryVersionIds) || s.evidenceIds.some((id) => revoked.has(id))),
  );
  const chainsLosingCurrent = [...new Set(purged.filter((v) => v.status === 'current').map((v) => v.memoryId))];
  return {
    purged,
    detached,
    profilesToPurge,
    profileAffected: current !== undefined && listsPurged(current.memoryVersionIds),
    summariesToInvalidate,
    chainsLosingCurrent,
  };
}

/** Recorded evidence, by id, that has not been revoked. */
export function usableEvidence(state: MemoryState, evidenceId: string): EvidenceState | undefined {
  const evidence = state.evidence[evidenceId];
  return evidence && !evidence.revoked ? evidence : undefined;
}
