import { createHash } from 'node:crypto';
import { eventRegistry, eventSamples, type EventEnvelope, type EventType } from '@lomo/contracts';
import { blobReferencesOf, forgottenBlobsOf } from './blob-references';

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
const ref = (text: string, contentType = 'text/plain') => ({
  hash: hashOf(text),
  bytes: Buffer.byteLength(text),
  contentType,
});

describe('blobReferencesOf: the blob references in an event’s data, found by shape', () => {
  it('finds references at any depth, in arrays and under any key, each hash once', () => {
    const snapshot = ref('the document');
    const patch = ref('[{"old":"a","new":"b"}]', 'application/json');
    const data = {
      version: 3,
      change: { type: 'snippets_edited', patch, text: { hash: hashOf('x'), bytes: 1, snapshot } },
      results: [{ nested: [{ resultRef: patch }] }, { other: 'value' }],
    };
    expect(blobReferencesOf(data)).toEqual([patch, snapshot]);
  });

  it('leaves out what only looks like one: a text summary without content type, extra keys, a malformed hash', () => {
    const data = {
      text: { hash: hashOf('summary only'), bytes: 12 },
      widened: { ...ref('with an extra key'), note: 'not a reference' },
      malformed: { hash: 'not-a-hash', bytes: 3, contentType: 'text/plain' },
      negative: { ...ref('negative'), bytes: -1 },
    };
    expect(blobReferencesOf(data)).toEqual([]);
  });

  it('finds, in every valid event sample of the registry, each reference the sample holds at a known place', () => {
    // The places the contracts put references (libs/contracts/src/events/*.ts); the walk must not
    // need to know them, so this is checked against the samples from the other side.
    const places = (data: Record<string, unknown>): unknown[] =>
      [data.text, data.promptRef, data.result, data.resultRef, data.snapshot].filter(
        (v) => typeof v === 'object' && v !== null && 'contentType' in v,
      );
    let withReferences = 0;
    for (const type of Object.keys(eventSamples) as EventType[]) {
      const sample = eventSamples[type].valid;
      expect(eventRegistry.get(type)?.schema.safeParse(sample).success).toBe(true);
      const found = blobReferencesOf(sample);
      for (const expected of places(sample)) expect(found).toContainEqual(expected);
      if (found.length > 0) withReferences += 1;
    }
    expect(withReferences).toBeGreaterThan(0);
  });

  it('reads the blobs a completed forgetting deleted from its report, and nothing from other events', () => {
    const deleted = [hashOf('v1 text'), hashOf('v2 text')];
    const completed = {
      type: 'ForgettingCompleted',
      data: { forgettingId: 'f1', report: { blobsDeleted: deleted } },
    } as unknown as EventEnvelope;
    expect(forgottenBlobsOf(completed)).toEqual(deleted.map((hash) => ({ hash, forgettingId: 'f1' })));
    expect(forgottenBlobsOf({ ...completed, type: 'ForgettingConfirmed' })).toEqual([]);
  });
});
