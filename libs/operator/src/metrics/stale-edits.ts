import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, idOf, turnTasks, type CountedMetric } from './collaboration-log';

/** The refusals a write gets when its base version is behind (libs/workspace/src/artifact-errors.ts). */
export const STALE_WRITE_CODES: ReadonlySet<string> = new Set([
  'ARTIFACT_VERSION_CONFLICT',
  'FLOW_NODE_CONFLICT',
  'FLOW_STRUCTURE_CONFLICT',
]);

interface Notice {
  noticeId: string;
  artifactId: string;
  by: { kind: string };
}

/**
 * Edits the agent based on a version it had not seen: (1) an agent revision of an artefact while
 * the task holds a person's change notice for it that no step has consumed yet (the person's
 * edit never reached a prompt before the agent wrote over it); (2) an agent write refused because
 * its base version was behind (the decider keeps the content safe, but the agent worked from a
 * stale copy); (3) an agent revision whose base version is older than the person's latest
 * revision of that artefact (a snippet edit the decider could apply to the latest text, yet the
 * agent chose it reading a version from before the person's change). Article §11.2: "after the
 * person edits, does the agent get the latest state?"
 */
export function staleEdits(events: readonly EventEnvelope[]): CountedMetric {
  const findings: CountedMetric['findings'] = [];
  const turns = turnTasks(events);
  // Per task: person notices not consumed yet, by notice id.
  const pending = new Map<string, Map<string, Notice>>();
  // Per artefact: the version the person's latest revision made.
  const personVersion = new Map<string, number>();
  const pendingOf = (taskId: string) => pending.get(taskId) ?? pending.set(taskId, new Map()).get(taskId)!;
  for (const e of events) {
    const taskId = idOf(e.metadata.streamId, 'task');
    if (e.type === 'ArtifactChangeNoticed' && taskId !== null) {
      const notice = dataOf<Notice>(e);
      if (notice.by.kind === 'person') pendingOf(taskId).set(notice.noticeId, notice);
    } else if (e.type === 'ArtifactChangeNoticesConsumed' && taskId !== null) {
      for (const id of dataOf<{ noticeIds: string[] }>(e).noticeIds) pendingOf(taskId).delete(id);
    } else if (e.type === 'ArtifactRevised' || e.type === 'FlowNodeRevised' || e.type === 'FlowStructureChanged') {
      const data = dataOf<{ by?: { kind: string; taskId?: string }; version?: number; baseVersion?: number }>(e);
      const by = data.by;
      const artifactId = idOf(e.metadata.streamId, 'artifact');
      if (artifactId === null) continue;
      if (by?.kind === 'person' && e.type === 'ArtifactRevised' && data.version !== undefined)
        personVersion.set(artifactId, data.version);
      if (by?.kind !== 'agent' || by.taskId === undefined) continue;
      const unseen = [...pendingOf(by.taskId).values()].filter((n) => n.artifactId === artifactId);
      const personAt = personVersion.get(artifactId);
      if (unseen.length > 0)
        findings.push(
          finding(
            e,
            by.taskId,
            `revised ${artifactId} without seeing the person's change (${unseen.length} notice(s))`,
          ),
        );
      else if (
        e.type === 'ArtifactRevised' &&
        data.baseVersion !== undefined &&
        personAt !== undefined &&
        data.baseVersion < personAt
      )
        findings.push(
          finding(
            e,
            by.taskId,
            `revised ${artifactId} from v${data.baseVersion}, older than the person's v${personAt}`,
          ),
        );
    } else if (e.type === 'ToolCallCompleted') {
      const completed = dataOf<{ callId: string; status: string; error?: { code?: string } }>(e);
      const code = completed.error?.code;
      if (completed.status === 'error' && code !== undefined && STALE_WRITE_CODES.has(code)) {
        const turnId = idOf(e.metadata.streamId, 'turn');
        findings.push(finding(e, turnId === null ? null : (turns.get(turnId) ?? null), `write refused: ${code}`));
      }
    }
  }
  return { count: findings.length, findings };
}
