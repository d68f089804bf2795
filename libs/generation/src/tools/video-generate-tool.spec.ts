import { makeToolContext } from '@lomo/tools/testing';
import { VIDEO_MODELS } from './media-limits';
import {
  acceptedArguments,
  mediaToolsOverFake,
  pendingNoteOf,
  argumentRefusal,
} from '../testing/fake-generation-requests';

const image = '8b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a68';

describe('video.generate', () => {
  const { registry } = mediaToolsOverFake();

  it('accepts every size and length each model is priced at, with the API defaults', () => {
    for (const [model, offered] of Object.entries(VIDEO_MODELS))
      for (const size of offered.sizes)
        for (const durationSeconds of offered.seconds)
          expect(
            acceptedArguments(registry, 'video.generate', { prompt: 'waves', model, size, durationSeconds }),
          ).toMatchObject({
            model,
            size,
            durationSeconds,
          });
    expect(acceptedArguments(registry, 'video.generate', { prompt: 'waves' })).toEqual({
      prompt: 'waves',
      model: 'sora-2',
      size: '720x1280',
      durationSeconds: 4,
    });
  });

  it.each([
    ['a size only sora-2-pro makes', { prompt: 'waves', size: '1792x1024' }, 'sora-2 makes'],
    ['an unpriced length', { prompt: 'waves', durationSeconds: 6 }, 'durationSeconds'],
    ['a length as text', { prompt: 'waves', durationSeconds: '4' }, 'durationSeconds'],
    ['an unknown model', { prompt: 'waves', model: 'veo-3' }, 'model'],
    [
      'a reference that is not an artefact id',
      { prompt: 'waves', referenceArtifactId: 'a.png' },
      'referenceArtifactId',
    ],
    ['a prompt over 4 000 characters', { prompt: 'w'.repeat(4_001) }, 'prompt'],
  ])('refuses %s', (_label, args, expected) => {
    expect(argumentRefusal(registry, 'video.generate', args)).toContain(expected);
  });

  it('orders text to video without references, image to video with the one reference', async () => {
    const { registry: tools, requests } = mediaToolsOverFake();
    pendingNoteOf(
      await tools.invoke('video.generate', { prompt: 'waves', durationSeconds: 8 }, makeToolContext({ index: 0 })),
    );
    pendingNoteOf(
      await tools.invoke(
        'video.generate',
        { prompt: 'make it move', referenceArtifactId: image },
        makeToolContext({ index: 1 }),
      ),
    );
    expect(requests.received[0]).toMatchObject({
      kind: 'video',
      operation: 'video.generate',
      options: { model: 'sora-2', size: '720x1280', durationSeconds: 8 },
    });
    expect(requests.received[0]).not.toHaveProperty('referenceArtifactIds');
    expect(requests.received[1].referenceArtifactIds).toEqual([image]);
  });
});
