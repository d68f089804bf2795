import type { MemoryScope } from '@lomo/contracts';
import type { MemoryState, MemoryVersionState } from '@lomo/domain';

/**
 * A version's text in the BlobStore: the claim on its first line and `subject = value` on the
 * second. Events carry only the fingerprint of the value, so the value a later extraction compares
 * with (is "blue with off-white" an extension of "blue"?) has to live in the deletable text, and
 * goes with it when the version is purged.
 */
export function memoryText(claim: string, subject: string, value: string): string {
  return `${claim.trim()}\n${subject} = ${value.trim()}`;
}

/** The claim and value of a version's text; a text without the value line is all claim. */
export function parseMemoryText(text: string): { claim: string; value: string | null } {
  const lines = text.split('\n');
  const last = lines.at(-1) ?? '';
  const at = last.indexOf(' = ');
  if (lines.length < 2 || at < 0) return { claim: text.trim(), value: null };
  return { claim: lines.slice(0, -1).join('\n').trim(), value: last.slice(at + 3).trim() };
}

/** A current version as extraction sees it: what the person's memory says now, by subject. */
export interface CurrentMemory {
  memoryId: string;
  versionId: string;
  subject: string;
  scope: MemoryScope;
  origin: 'explicit' | 'inferred';
  kind: 'preference' | 'fact';
  claim: string;
  value: string;
  fingerprint: string;
}

/** The chain's current version: the last one neither superseded nor purged. */
export function currentVersion(state: MemoryState, memoryId: string): MemoryVersionState | undefined {
  const chain = state.memories[memoryId];
  if (chain === undefined) return undefined;
  for (let i = chain.versionIds.length - 1; i >= 0; i -= 1) {
    const version = state.versions[chain.versionIds[i]!];
    if (version?.status === 'current') return version;
  }
  return undefined;
}

/**
 * Every standing memory with its text (read by the caller from the BlobStore: `textOf` returns
 * undefined for a missing blob, and that version is left out rather than guessed).
 */
export function currentMemories(
  state: MemoryState,
  textOf: (versionId: string) => string | undefined,
): CurrentMemory[] {
  const out: CurrentMemory[] = [];
  for (const memoryId of Object.keys(state.memories).sort()) {
    const version = currentVersion(state, memoryId);
    if (version === undefined || version.text === null) continue;
    const text = textOf(version.versionId);
    if (text === undefined) continue;
    const { claim, value } = parseMemoryText(text);
    out.push({
      memoryId,
      versionId: version.versionId,
      subject: version.subject,
      scope: version.scope,
      origin: version.origin,
      kind: version.kind,
      claim,
      value: value ?? claim,
      fingerprint: version.fingerprint,
    });
  }
  return out;
}

export const sameScope = (a: MemoryScope, b: MemoryScope): boolean =>
  a.kind === b.kind && (a.kind === 'long_term' || (b.kind === 'task' && a.taskId === b.taskId));
