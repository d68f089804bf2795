import { makeToolContext } from '@lomo/tools/testing';
import { mediaToolsOverFake, pendingNoteOf } from '../testing/fake-generation-requests';

describe('createMediaTools', () => {
  it('registers every media tool, paid and authorized by the ledger, each in its own domain', () => {
    const { registry } = mediaToolsOverFake();
    const paid = registry.list().filter((t) => t.sideEffect === 'paid');
    expect(paid.map((t) => [t.name, t.domain])).toEqual([
      ['image.edit', 'image'],
      ['image.generate', 'image'],
      ['video.generate', 'video'],
      ['audio.generate', 'audio'],
      ['model3d.generate', '3d'],
    ]);
    for (const tool of paid) expect(tool).toMatchObject({ authorizedBy: 'ledger', async: true, idempotent: true });
  });

  it('asks no runtime approval for a media call: the ledger gates the money', () => {
    const { registry } = mediaToolsOverFake();
    const { callId } = makeToolContext();
    for (const name of ['image.generate', 'image.edit', 'video.generate', 'model3d.generate', 'audio.generate'])
      expect(registry.authorize(name, callId, new Set())).toEqual({ decision: 'allowed' });
  });

  it('gives the same job for the same call id, and another job for another call', async () => {
    const { registry, requests } = mediaToolsOverFake();
    const first = makeToolContext({ index: 0 });
    const a = pendingNoteOf(await registry.invoke('image.generate', { prompt: 'a fox' }, first));
    const again = pendingNoteOf(await registry.invoke('image.generate', { prompt: 'a fox' }, first));
    const other = pendingNoteOf(
      await registry.invoke('image.generate', { prompt: 'a fox' }, makeToolContext({ index: 1 })),
    );
    const jobOf = (note: string) => /^job (\S+)/.exec(note)?.[1];
    expect(jobOf(again)).toBe(jobOf(a));
    expect(jobOf(other)).not.toBe(jobOf(a));
    expect(requests.received.map((r) => r.callId)).toEqual([
      first.callId,
      first.callId,
      makeToolContext({ index: 1 }).callId,
    ]);
  });
});
