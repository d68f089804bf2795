import { makeToolContext, TEST_TASK_ID, TEST_TURN_ID, TEST_WORKSPACE_ID } from '@lomo/tools/testing';
import { generationJobId } from '../job/job-ids';
import { IMAGE_QUALITIES, IMAGE_SIZES } from './media-limits';
import {
  acceptedArguments,
  mediaToolsOverFake,
  pendingNoteOf,
  argumentRefusal,
} from '../testing/fake-generation-requests';

const ref = (n: number) => `8b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a6${n}`;

describe('image.generate', () => {
  const { registry } = mediaToolsOverFake();

  it('is a paid, async, idempotent image tool whose money gate is the ledger', () => {
    expect(registry.get('image.generate')).toMatchObject({
      domain: 'image',
      sideEffect: 'paid',
      authorizedBy: 'ledger',
      async: true,
      idempotent: true,
    });
  });

  it('accepts every priced size and quality, and fills the provider defaults', () => {
    for (const size of IMAGE_SIZES)
      for (const quality of IMAGE_QUALITIES)
        expect(acceptedArguments(registry, 'image.generate', { prompt: 'a poster', size, quality })).toMatchObject({
          size,
          quality,
        });
    expect(acceptedArguments(registry, 'image.generate', { prompt: '  a red fox  ' })).toEqual({
      prompt: 'a red fox',
      size: '1024x1024',
      quality: 'medium',
      background: 'auto',
      outputFormat: 'png',
    });
  });

  it.each([
    ['an empty prompt', { prompt: '' }, 'prompt'],
    ['a prompt over 32 000 characters', { prompt: 'x'.repeat(32_001) }, 'prompt'],
    ['an unpriced size', { prompt: 'fox', size: '512x512' }, 'size'],
    ['an unknown quality', { prompt: 'fox', quality: 'ultra' }, 'quality'],
    ['a transparent JPEG', { prompt: 'fox', background: 'transparent', outputFormat: 'jpeg' }, 'outputFormat'],
    ['an unknown field (several images)', { prompt: 'fox', n: 2 }, 'n'],
    ['no prompt', {}, 'prompt'],
  ])('refuses %s, naming %s', (_label, args, field) => {
    expect(argumentRefusal(registry, 'image.generate', args)).toContain(field);
  });

  it('orders the job with the call, task and turn of the context, and answers pending with the job and quote', async () => {
    const { registry: tools, requests } = mediaToolsOverFake();
    const context = makeToolContext({ correlationId: 'trace-1' });
    const result = await tools.invoke(
      'image.generate',
      { prompt: 'a poster of a lighthouse', size: '1024x1536' },
      context,
    );
    const jobId = generationJobId(TEST_WORKSPACE_ID, context.callId);
    expect(pendingNoteOf(result)).toBe(
      `job ${jobId} is requested: quote 0.40 USD; the result arrives as this call's result`,
    );
    expect(requests.received).toEqual([
      {
        workspaceId: TEST_WORKSPACE_ID,
        taskId: TEST_TASK_ID,
        turnId: TEST_TURN_ID,
        callId: context.callId,
        correlationId: 'trace-1',
        kind: 'image',
        operation: 'image.generate',
        prompt: 'a poster of a lighthouse',
        options: { size: '1024x1536', quality: 'medium', background: 'auto', outputFormat: 'png' },
      },
    ]);
  });

  it("says when the quote needs the person's approval, and falls back to the turn id for a malformed trace id", async () => {
    const { registry: tools, requests } = mediaToolsOverFake({ autoApproveUpToMinor: 10 });
    const context = makeToolContext({ correlationId: 'not a trace id!' });
    const note = pendingNoteOf(await tools.invoke('image.generate', { prompt: 'fox' }, context));
    expect(note).toMatch(/^job [0-9a-f-]{36} is awaiting_approval: quote 0\.40 USD needs the person's approval/);
    expect(requests.received[0].correlationId).toBe(TEST_TURN_ID);
  });
});

describe('image.edit', () => {
  const { registry } = mediaToolsOverFake();

  it('accepts 1 to 4 distinct reference artefacts and passes them as references, not options', async () => {
    expect(
      acceptedArguments(registry, 'image.edit', { prompt: 'warmer', referenceArtifactIds: [ref(1)] }),
    ).toMatchObject({
      referenceArtifactIds: [ref(1)],
      size: '1024x1024',
    });
    const four = [1, 2, 3, 4].map(ref);
    const { registry: tools, requests } = mediaToolsOverFake();
    pendingNoteOf(
      await tools.invoke('image.edit', { prompt: 'make it night', referenceArtifactIds: four }, makeToolContext()),
    );
    expect(requests.received[0]).toMatchObject({ operation: 'image.edit', kind: 'image', referenceArtifactIds: four });
    expect(requests.received[0].options).not.toHaveProperty('referenceArtifactIds');
  });

  it.each([
    ['no references', { prompt: 'warmer' }, 'referenceArtifactIds'],
    ['an empty list', { prompt: 'warmer', referenceArtifactIds: [] }, 'referenceArtifactIds'],
    ['five references', { prompt: 'warmer', referenceArtifactIds: [1, 2, 3, 4, 5].map(ref) }, 'referenceArtifactIds'],
    ['the same reference twice', { prompt: 'warmer', referenceArtifactIds: [ref(1), ref(1)] }, 'twice'],
    ['a file name for an id', { prompt: 'warmer', referenceArtifactIds: ['poster.png'] }, 'referenceArtifactIds'],
  ])('refuses %s', (_label, args, field) => {
    expect(argumentRefusal(registry, 'image.edit', args)).toContain(field);
  });
});
