import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, idOf, normalized, type CountedMetric } from './collaboration-log';

interface Created {
  artifactId: string;
  kind: string;
  title: string;
  createdBy: { kind: string };
  taskId?: string;
}

/**
 * The same thing split into copies: an artefact the agent (or a job) created in a task that
 * already has a live artefact of the same kind and title (normalised). Revising the existing one
 * was the right move; a person's own upload is theirs to name. Deleted artefacts do not count.
 */
export function duplicateArtifacts(events: readonly EventEnvelope[]): CountedMetric {
  const findings: CountedMetric['findings'] = [];
  const live = new Map<string, { artifactId: string; key: string }[]>();
  const deleted = new Set<string>();
  for (const e of events) {
    if (e.type === 'ArtifactDeleted' || e.type === 'ArtifactDeletionRequested') {
      const artifactId = idOf(e.metadata.streamId, 'artifact');
      if (artifactId !== null) deleted.add(artifactId);
      continue;
    }
    if (e.type !== 'ArtifactCreated') continue;
    const created = dataOf<Created>(e);
    if (created.taskId === undefined) continue;
    const key = `${created.kind}:${normalized(created.title)}`;
    const existing = (live.get(created.taskId) ?? []).filter((a) => !deleted.has(a.artifactId));
    const twin = existing.find((a) => a.key === key);
    if (twin !== undefined && created.createdBy.kind !== 'person')
      findings.push(finding(e, created.taskId, `"${created.title}" again (first: ${twin.artifactId})`));
    live.set(created.taskId, [...existing, { artifactId: created.artifactId, key }]);
  }
  return { count: findings.length, findings };
}
