import type { EventEnvelope } from '@lomo/contracts';
import { judgeEvidence } from './verify-evidence';

// Evidence is judged from the named stream's events alone: what exists, whose it is, whether it ended.

const TASK = '00000000-0000-4000-8000-0000000000a1';
const OTHER = '00000000-0000-4000-8000-0000000000a2';
const ART = '00000000-0000-4000-8000-0000000000b1';
const JOB = '00000000-0000-4000-8000-0000000000c1';
const envelope = (type: string, data: Record<string, unknown>, workspaceId = 'ws1'): EventEnvelope =>
  ({ type, data, metadata: { workspaceId } }) as unknown as EventEnvelope;
const created = (taskId?: string) =>
  envelope('ArtifactCreated', {
    artifactId: ART,
    ...(taskId ? { taskId } : {}),
    createdBy: { kind: 'user', userId: 'u1' },
  });
const version = { kind: 'artifact_version' as const, artifactId: ART, version: 2 };

describe('judging checklist evidence', () => {
  it('an artefact version the task made counts', () => {
    expect(
      judgeEvidence(version, TASK, 'ws1', [created(TASK), envelope('ArtifactRevised', { version: 2 })]),
    ).toBeNull();
  });

  it('a version that does not exist, or of a deleted artefact, is not found', () => {
    expect(judgeEvidence(version, TASK, 'ws1', [created(TASK)])?.code).toBe('EVIDENCE_NOT_FOUND');
    expect(
      judgeEvidence(version, TASK, 'ws1', [
        created(TASK),
        envelope('ArtifactRevised', { version: 2 }),
        envelope('ArtifactDeleted', {}),
      ])?.code,
    ).toBe('EVIDENCE_NOT_FOUND');
  });

  it('another task’s artefact counts only once this task references it', () => {
    const revised = envelope('ArtifactRevised', { version: 2 });
    expect(judgeEvidence(version, TASK, 'ws1', [created(OTHER), revised])?.code).toBe('EVIDENCE_NOT_OF_TASK');
    expect(
      judgeEvidence(version, TASK, 'ws1', [created(OTHER), revised, envelope('ArtifactReferenced', { taskId: TASK })]),
    ).toBeNull();
  });

  it('another workspace’s stream is as if absent', () => {
    expect(
      judgeEvidence(
        version,
        TASK,
        'ws1',
        [created(TASK), envelope('ArtifactRevised', { version: 2 })].map((e) => ({
          ...e,
          metadata: { ...e.metadata, workspaceId: 'ws2' },
        })),
      )?.code,
    ).toBe('EVIDENCE_NOT_FOUND');
  });

  it('a job counts when it completed and is this task’s', () => {
    const job = { kind: 'job' as const, jobId: JOB };
    const requested = (taskId: string) => envelope('GenerationRequested', { jobId: JOB, taskId });
    expect(judgeEvidence(job, TASK, 'ws1', [requested(TASK), envelope('GenerationCompleted', {})])).toBeNull();
    expect(judgeEvidence(job, TASK, 'ws1', [requested(TASK)])?.code).toBe('EVIDENCE_NOT_FOUND');
    expect(judgeEvidence(job, TASK, 'ws1', [requested(OTHER), envelope('GenerationCompleted', {})])?.code).toBe(
      'EVIDENCE_NOT_OF_TASK',
    );
  });
});
