import { makeToolContext, TEST_WORKSPACE_ID } from '@lomo/tools/testing';
import { generationArtifactId, generationJobId } from '../job/job-ids';
import { GENERATION_JOB_NOT_FOUND } from './generation-status-tool';
import { mediaToolsOverFake, pendingNoteOf, argumentRefusal } from '../testing/fake-generation-requests';

describe('generation.status', () => {
  it('is a core read tool, not async', () => {
    const { registry } = mediaToolsOverFake();
    expect(registry.get('generation.status')).toMatchObject({ domain: 'core', sideEffect: 'read', idempotent: true });
    expect(registry.get('generation.status')?.async).toBeUndefined();
    expect(registry.specs().map((s) => s.name)).toEqual(['generation.status']);
  });

  it('finds a job by job id and by call id, with phase, progress, cost and then the artefact', async () => {
    const { registry, requests } = mediaToolsOverFake();
    const ordering = makeToolContext();
    pendingNoteOf(await registry.invoke('image.generate', { prompt: 'a fox' }, ordering));
    const jobId = generationJobId(TEST_WORKSPACE_ID, ordering.callId);
    const reading = makeToolContext({ step: 2 });

    expect(await registry.invoke('generation.status', { callId: ordering.callId }, reading)).toEqual({
      status: 'ok',
      output: {
        jobId,
        callId: ordering.callId,
        kind: 'image',
        operation: 'image.generate',
        phase: 'requested',
        progress: 0,
        cost: { amountMinor: 40, currency: 'USD', display: '0.40 USD' },
      },
    });
    requests.complete(jobId);
    expect(await registry.invoke('generation.status', { jobId }, reading)).toMatchObject({
      status: 'ok',
      output: { phase: 'completed', progress: 100, artifactId: generationArtifactId(jobId) },
    });
    requests.fail(jobId, 'rejected', 'refused by the upstream');
    expect(await registry.invoke('generation.status', { jobId }, reading)).toMatchObject({
      output: { phase: 'failed', failure: { reason: 'rejected', message: 'refused by the upstream' } },
    });
  });

  it('answers a typed, non-retriable error for an unknown job or another workspace', async () => {
    const { registry } = mediaToolsOverFake();
    const ordering = makeToolContext();
    pendingNoteOf(await registry.invoke('image.generate', { prompt: 'a fox' }, ordering));
    const elsewhere = makeToolContext({ workspaceId: 'ws_other' });
    for (const [args, context] of [
      [{ jobId: '00000000-0000-4000-8000-000000000000' }, ordering],
      [{ callId: ordering.callId }, elsewhere],
    ] as const) {
      expect(await registry.invoke('generation.status', args, context)).toEqual({
        status: 'error',
        error: {
          code: GENERATION_JOB_NOT_FOUND,
          message: expect.stringContaining('No media job') as string,
          retriable: false,
        },
      });
    }
  });

  it('needs exactly one of jobId and callId', () => {
    const { registry } = mediaToolsOverFake();
    const callId = makeToolContext().callId;
    expect(argumentRefusal(registry, 'generation.status', {})).toContain('exactly one');
    expect(argumentRefusal(registry, 'generation.status', { jobId: generationJobId('ws', callId), callId })).toContain(
      'exactly one',
    );
    expect(argumentRefusal(registry, 'generation.status', { callId: 'call-1' })).toContain('callId');
  });
});
