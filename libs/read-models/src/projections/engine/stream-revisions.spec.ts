import { decodeRevisions, entityIdOf, revisionIn, streamIdOfKey, streamKey, withRevision } from './stream-revisions';

describe('stream revisions kept in documents', () => {
  it('encodes main stream ids (which hold a ".") into valid field names and back', () => {
    const main = 'main-ws1.u1';
    expect(streamKey(main)).toBe('main-ws1~u1');
    expect(streamIdOfKey(streamKey(main))).toBe(main);
    expect(streamKey('task-0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60')).toBe('task-0b9c6f3e-8a51-4d7e-9a35-2f7c1d4e5a60');
  });

  it('reads -1 for a stream the document never applied, and records revisions per stream', () => {
    const revisions = withRevision(withRevision({}, 'main-ws1.u1', 4), 'turn-t1', 0);
    expect(revisionIn(revisions, 'main-ws1.u1')).toBe(4);
    expect(revisionIn(revisions, 'turn-t1')).toBe(0);
    expect(revisionIn(revisions, 'turn-t2')).toBe(-1);
    expect(decodeRevisions(revisions)).toEqual({ 'main-ws1.u1': 4, 'turn-t1': 0 });
  });

  it('takes the entity id after the category', () => {
    expect(entityIdOf('turn-5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f')).toBe('5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f');
  });
});
