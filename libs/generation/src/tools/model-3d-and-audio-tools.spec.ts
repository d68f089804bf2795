import { makeToolContext } from '@lomo/tools/testing';
import { AUDIO_SECONDS_MAX, AUDIO_SECONDS_MIN, AUDIO_VOICES } from './media-limits';
import {
  acceptedArguments,
  mediaToolsOverFake,
  pendingNoteOf,
  argumentRefusal,
} from '../testing/fake-generation-requests';

const image = '8b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a68';

describe('model3d.generate', () => {
  const { registry } = mediaToolsOverFake();

  it('is offered in the 3d domain, and accepts text or a reference image, glb or gltf', () => {
    expect(registry.get('model3d.generate')).toMatchObject({
      domain: '3d',
      sideEffect: 'paid',
      authorizedBy: 'ledger',
    });
    expect(acceptedArguments(registry, 'model3d.generate', { prompt: 'a teapot' })).toEqual({
      prompt: 'a teapot',
      format: 'glb',
    });
    expect(
      acceptedArguments(registry, 'model3d.generate', {
        prompt: 'this chair',
        referenceArtifactId: image,
        format: 'gltf',
      }),
    ).toEqual({ prompt: 'this chair', referenceArtifactId: image, format: 'gltf' });
  });

  it.each([
    ['an unknown format', { prompt: 'a teapot', format: 'obj' }, 'format'],
    ['several models (nothing else is priced)', { prompt: 'a teapot', count: 2 }, 'count'],
    ['a prompt over 2 000 characters', { prompt: 't'.repeat(2_001) }, 'prompt'],
  ])('refuses %s', (_label, args, field) => {
    expect(argumentRefusal(registry, 'model3d.generate', args)).toContain(field);
  });

  it('orders a 3d job with the format and the reference image', async () => {
    const { registry: tools, requests } = mediaToolsOverFake();
    const args = { prompt: 'this chair', referenceArtifactId: image };
    pendingNoteOf(await tools.invoke('model3d.generate', args, makeToolContext()));
    expect(requests.received[0]).toMatchObject({
      kind: '3d',
      operation: 'model3d.generate',
      options: { format: 'glb' },
      referenceArtifactIds: [image],
    });
  });
});

describe('audio.generate', () => {
  const { registry } = mediaToolsOverFake();

  it('accepts speech in every voice and music, from 1 to 600 whole seconds', () => {
    for (const voice of AUDIO_VOICES)
      expect(acceptedArguments(registry, 'audio.generate', { prompt: 'Hello', voice })).toMatchObject({
        mode: 'speech',
        voice,
      });
    for (const durationSeconds of [AUDIO_SECONDS_MIN, AUDIO_SECONDS_MAX])
      expect(
        acceptedArguments(registry, 'audio.generate', { mode: 'music', prompt: 'calm piano', durationSeconds }),
      ).toEqual({
        mode: 'music',
        prompt: 'calm piano',
        durationSeconds,
      });
  });

  it.each([
    ['no seconds', { prompt: 'Hello', durationSeconds: 0 }, 'durationSeconds'],
    ['over ten minutes', { prompt: 'Hello', durationSeconds: 601 }, 'durationSeconds'],
    ['a fraction of a second', { prompt: 'Hello', durationSeconds: 2.5 }, 'durationSeconds'],
    ['an unknown voice', { prompt: 'Hello', voice: 'robot' }, 'voice'],
    ['a voice for music', { mode: 'music', prompt: 'calm piano', voice: 'nova' }, 'only for speech'],
    ['an unknown mode', { mode: 'podcast', prompt: 'Hello' }, 'mode'],
  ])('refuses %s', (_label, args, expected) => {
    expect(argumentRefusal(registry, 'audio.generate', args)).toContain(expected);
  });

  it('orders speech with the default voice and music without one', async () => {
    const { registry: tools, requests } = mediaToolsOverFake();
    pendingNoteOf(await tools.invoke('audio.generate', { prompt: 'Welcome!' }, makeToolContext({ index: 0 })));
    pendingNoteOf(
      await tools.invoke('audio.generate', { mode: 'music', prompt: 'jazz' }, makeToolContext({ index: 1 })),
    );
    expect(requests.received.map((r) => [r.kind, r.options])).toEqual([
      ['audio', { mode: 'speech', durationSeconds: 10, voice: 'alloy' }],
      ['audio', { mode: 'music', durationSeconds: 10 }],
    ]);
  });
});
