import { noticeIdFor, planNotices, type VersionFacts } from './plan-notices';

const artifactId = '44444444-4444-4444-8444-444444444444';
const taskA = '0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60';
const taskB = '4c3b2a19-0f8e-4d7c-9b6a-5e4d3c2b1a09';
const person = { kind: 'person' as const, userId: 'u1' };
const agentOf = (taskId: string) => ({ kind: 'agent' as const, taskId, callId: `${taskId}:1:0` });
const artifact = (version: number, deleted = false) => ({ artifactId, version, created: true, deleted });
const v = (version: number, by: VersionFacts['by'], nodes: string[] = [], summary: string | null = null) => ({
  version,
  by,
  nodes,
  summary,
});

describe('planNotices: who is told that an artefact moved on', () => {
  it('every task that saw an older version gets one notice from its version to the latest, with the span’s nodes and summaries', () => {
    const versions = [v(2, person, ['A'], 'node params: A'), v(3, person, ['B'], 'node params: B')];
    expect(
      planNotices(artifact(3), versions, [
        { taskId: taskA, lastSeenVersion: 1 },
        { taskId: taskB, lastSeenVersion: 2 },
      ]),
    ).toEqual([
      {
        taskId: taskA,
        command: {
          type: 'NoticeArtifactChange',
          noticeId: noticeIdFor(taskA, artifactId, 3),
          artifactId,
          fromVersion: 1,
          toVersion: 3,
          by: person,
          nodes: ['A', 'B'],
          summary: 'v2: node params: A; v3: node params: B',
        },
      },
      expect.objectContaining({
        taskId: taskB,
        command: expect.objectContaining({ fromVersion: 2, nodes: ['B'], summary: 'node params: B' }),
      }),
    ]);
  });

  it('skips the writer of the latest version and a task that saw the latest already', () => {
    const versions = [v(2, agentOf(taskA), [], 'agent rewrite')];
    expect(
      planNotices(artifact(2), versions, [
        { taskId: taskA, lastSeenVersion: 1 },
        { taskId: taskB, lastSeenVersion: 2 },
      ]),
    ).toEqual([]);
  });

  it('a task that wrote a version inside the span is told only what came after its own write', () => {
    const versions = [v(2, agentOf(taskA), [], 'agent rewrite'), v(3, person, [], '1 snippet')];
    const [planned] = planNotices(artifact(3), versions, [{ taskId: taskA, lastSeenVersion: 1 }]);
    expect(planned?.command).toMatchObject({ fromVersion: 2, toVersion: 3, summary: '1 snippet' });
  });

  it('a deleted artefact, or one never revised, notices nobody', () => {
    const readers = [{ taskId: taskA, lastSeenVersion: 1 }];
    expect(planNotices(artifact(2, true), [v(2, person)], readers)).toEqual([]);
    expect(planNotices(artifact(1), [], readers)).toEqual([]);
  });

  it('the notice id depends on task, artefact and to-version only, so a redone fan-out repeats it', () => {
    expect(noticeIdFor(taskA, artifactId, 3)).toBe(noticeIdFor(taskA, artifactId, 3));
    expect(
      new Set([noticeIdFor(taskA, artifactId, 3), noticeIdFor(taskB, artifactId, 3), noticeIdFor(taskA, artifactId, 4)])
        .size,
    ).toBe(3);
  });
});
