import type { EventDataMap } from '@lomo/contracts';
import { DomainError } from '../decider';
import { MemoryErrors } from './memory-errors';
import { isSupporting, isSuppressed, lastVersionNumber } from './memory-queries';
import type { ForgettingState, MemoryState } from './memory-state';

export function invalid(message: string): never {
  throw new DomainError(MemoryErrors.VALIDATION_FAILED, message);
}

export function refuse(code: string, message: string): never {
  throw new DomainError(code, message);
}

export function forgettingOf(state: MemoryState, forgettingId: string): ForgettingState {
  const forgetting = state.forgettings[forgettingId];
  if (!forgetting) refuse(MemoryErrors.FORGETTING_NOT_FOUND, `No forgetting ${forgettingId}`);
  return forgetting;
}

/**
 * What one command adds on top of the state while its versions are checked in order: the versions
 * it created so far (parents may be among them, numbers continue after them), and for a forgetting
 * the evidence it revokes, the versions it purges and the claims it suppresses.
 */
export interface VersionBatch {
  created: Map<string, EventDataMap['MemoryVersionCreated']>;
  lastNumber: Map<string, number>;
  revoked: ReadonlySet<string>;
  purged: ReadonlySet<string>;
  suppressed: ReadonlySet<string>;
}

export const newBatch = (
  extra: Partial<Pick<VersionBatch, 'revoked' | 'purged' | 'suppressed'>> = {},
): VersionBatch => ({
  created: new Map(),
  lastNumber: new Map(),
  revoked: extra.revoked ?? new Set(),
  purged: extra.purged ?? new Set(),
  suppressed: extra.suppressed ?? new Set(),
});

/** Whether a version stands once the batch applies (created in it, or current and not purged by it). */
export function standsAfter(state: MemoryState, batch: VersionBatch, versionId: string): boolean {
  if (batch.created.has(versionId)) return true;
  return state.versions[versionId]?.status === 'current' && !batch.purged.has(versionId);
}

function checkEvidence(state: MemoryState, batch: VersionBatch, v: EventDataMap['MemoryVersionCreated']): number {
  let latest = 0;
  let byMessage = false;
  for (const link of v.evidence) {
    const evidence = state.evidence[link.evidenceId];
    if (!evidence) refuse(MemoryErrors.EVIDENCE_UNKNOWN, `Evidence ${link.evidenceId} was never recorded`);
    if (evidence.revoked || batch.revoked.has(link.evidenceId))
      refuse(MemoryErrors.EVIDENCE_REVOKED, `Evidence ${link.evidenceId} was revoked`);
    if (!isSupporting(link.role)) continue;
    latest = Math.max(latest, evidence.ordinal);
    byMessage ||= evidence.source.kind === 'message';
  }
  if (latest === 0) invalid(`Version ${v.versionId} has no ORIGIN or REFINE evidence`);
  // An observation (what the agent did) supports only a guess, never the person's own statement.
  if (v.origin === 'explicit' && !byMessage)
    refuse(MemoryErrors.INFERRED_NOT_EXPLICIT, `Explicit version ${v.versionId} needs a message as ORIGIN or REFINE`);
  return latest;
}

/** Checks one new version against the state and the batch so far, then adds it to the batch. */
export function checkNewVersion(
  state: MemoryState,
  batch: VersionBatch,
  v: EventDataMap['MemoryVersionCreated'],
): void {
  if (state.versions[v.versionId] || batch.created.has(v.versionId))
    refuse(MemoryErrors.VERSION_CONFLICT, `Version ${v.versionId} exists`);
  const chain = state.memories[v.memoryId];
  if (chain && (chain.subject !== v.subject || JSON.stringify(chain.scope) !== JSON.stringify(v.scope)))
    invalid(`Version ${v.versionId} is about another subject or scope than memory ${v.memoryId}`);
  const expected = (batch.lastNumber.get(v.memoryId) ?? lastVersionNumber(state, v.memoryId)) + 1;
  if (v.version !== expected)
    refuse(MemoryErrors.VERSION_CONFLICT, `Memory ${v.memoryId} continues with version ${expected}, not ${v.version}`);
  if (v.validTo !== undefined && Date.parse(v.validTo) < Date.parse(v.validFrom))
    invalid(`Version ${v.versionId} ends before it starts`);
  for (const parent of v.derivedFrom) {
    if (!state.versions[parent] && !batch.created.has(parent))
      refuse(MemoryErrors.VERSION_NOT_FOUND, `No version ${parent}`);
    if (!standsAfter(state, batch, parent))
      refuse(MemoryErrors.VERSION_NOT_CURRENT, `Version ${parent} does not stand`);
  }
  const latest = checkEvidence(state, batch, v);
  if (batch.suppressed.has(v.fingerprint) || isSuppressed(state, v.fingerprint, latest))
    refuse(MemoryErrors.SUPPRESSED, `Version ${v.versionId} repeats a forgotten claim from evidence of before`);
  batch.created.set(v.versionId, v);
  batch.lastNumber.set(v.memoryId, v.version);
}

/**
 * One standing version per memory once the batch applies: a new version in a memory that has one
 * must supersede it (refine or correct), which `superseded` lists.
 */
export function oneStandingPerMemory(state: MemoryState, batch: VersionBatch, superseded: ReadonlySet<string>): void {
  const standing = new Map<string, number>();
  const memories = new Set([...batch.created.values()].map((v) => v.memoryId));
  for (const memoryId of memories) {
    const ids = [...(state.memories[memoryId]?.versionIds ?? []), ...batch.created.keys()];
    for (const id of new Set(ids)) {
      const v = batch.created.get(id) ?? state.versions[id];
      if (v?.memoryId !== memoryId || superseded.has(id) || !standsAfter(state, batch, id)) continue;
      standing.set(memoryId, (standing.get(memoryId) ?? 0) + 1);
    }
    if ((standing.get(memoryId) ?? 0) > 1)
      refuse(MemoryErrors.VERSION_NOT_CURRENT, `Memory ${memoryId} would have two standing versions`);
  }
}
