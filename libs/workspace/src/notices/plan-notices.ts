import { deterministicUuid, type ArtifactAuthor } from '@lomo/contracts';
import type { NoticeArtifactChange } from '@lomo/domain';

/** What the planner reads of an artefact (its workspace projection document). */
export interface ArtifactFacts {
  artifactId: string;
  version: number;
  created: boolean;
  deleted: boolean;
}

/** One version of the artefact: who made it and what changed. */
export interface VersionFacts {
  version: number;
  by: ArtifactAuthor | null;
  nodes: readonly string[];
  summary: string | null;
}

/** A task that read or wrote the artefact, with the highest version it saw. */
export interface ReaderFacts {
  taskId: string;
  lastSeenVersion: number;
}

export interface PlannedNotice {
  taskId: string;
  command: NoticeArtifactChange;
}

const MAX_SUMMARY = 2000;

/** Deterministic per (task, artefact, to-version): a fan-out repeated after a crash lands on the same id. */
export const noticeIdFor = (taskId: string, artifactId: string, toVersion: number) =>
  deterministicUuid('lomo.artifact-notice', taskId, artifactId, String(toVersion));

const taskOf = (by: ArtifactAuthor | null): string | undefined =>
  by?.kind === 'agent' ? by.taskId : by?.kind === 'generation' ? by.taskId : undefined;

/**
 * The change-notice fan-out, pure: for an artefact at version V, every task whose last seen
 * version is older gets a NoticeArtifactChange from that version to V. The writer of V is
 * skipped (it knows what it wrote), and so is any task that wrote a version in the span itself
 * (its seen version is at least that one, whether or not its tool result is projected yet). A
 * deleted artefact notices nobody. `nodes` and `summary` cover the whole span; versions the
 * projection has not got yet are simply missing from them (the next write or read widens it).
 */
export function planNotices(
  artifact: ArtifactFacts,
  versions: readonly VersionFacts[],
  readers: readonly ReaderFacts[],
): PlannedNotice[] {
  if (!artifact.created || artifact.deleted || artifact.version < 2) return [];
  const to = artifact.version;
  const byVersion = [...versions].sort((a, b) => a.version - b.version);
  const latest = byVersion.find((v) => v.version === to);
  const author: ArtifactAuthor = latest?.by ?? { kind: 'person', userId: 'unknown' };
  const writer = taskOf(latest?.by ?? null);
  const planned: PlannedNotice[] = [];
  for (const reader of readers) {
    if (reader.taskId === writer) continue;
    const wroteInSpan = byVersion
      .filter((v) => v.version > reader.lastSeenVersion && v.version <= to && taskOf(v.by) === reader.taskId)
      .map((v) => v.version);
    const from = Math.max(reader.lastSeenVersion, ...wroteInSpan);
    if (from < 1 || from >= to) continue;
    const span = byVersion.filter((v) => v.version > from && v.version <= to);
    const nodes = [...new Set(span.flatMap((v) => v.nodes))];
    planned.push({
      taskId: reader.taskId,
      command: {
        type: 'NoticeArtifactChange',
        noticeId: noticeIdFor(reader.taskId, artifact.artifactId, to),
        artifactId: artifact.artifactId,
        fromVersion: from,
        toVersion: to,
        by: author,
        nodes,
        summary: summarize(span, from, to),
      },
    });
  }
  return planned;
}

/** "v4: 2 snippets, +40 −12 chars; v5: node params: A" — the distinct summaries, capped. */
function summarize(span: readonly VersionFacts[], from: number, to: number): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const v of span) {
    const s = v.summary ?? '';
    if (s === '' || seen.has(s)) continue;
    seen.add(s);
    parts.push(span.length > 1 ? `v${v.version}: ${s}` : s);
  }
  const text = parts.length > 0 ? parts.join('; ') : `versions ${from + 1}..${to}`;
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}
