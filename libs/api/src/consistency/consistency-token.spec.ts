import { decodeConsistencyToken, encodeConsistencyToken } from './consistency-token';

describe('consistency tokens', () => {
  it('round-trip the (stream, revision) pairs a mutation wrote', () => {
    const pairs = [
      { streamId: 'task-0b6f0c1e-8d1c-4a3e-9f5e-1c2d3e4f5a6b', revision: 7 },
      { streamId: 'main-ws1.u1', revision: 0 },
    ];
    const token = encodeConsistencyToken(pairs);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeConsistencyToken(token)).toEqual(pairs);
  });

  it.each([
    ['not base64 JSON', 'garbage!'],
    ['another version', Buffer.from(JSON.stringify({ v: 2, p: [['main-ws.u', 1]] })).toString('base64url')],
    ['a bad stream id', Buffer.from(JSON.stringify({ v: 1, p: [['no stream', 1]] })).toString('base64url')],
    ['a negative revision', Buffer.from(JSON.stringify({ v: 1, p: [['main-ws.u', -1]] })).toString('base64url')],
    [
      'too many pairs',
      encodeConsistencyToken(Array.from({ length: 33 }, (_, i) => ({ streamId: 'main-w.u', revision: i }))),
    ],
  ])('refuses %s with INVALID_CONSISTENCY_TOKEN', (_what, token) => {
    expect(() => decodeConsistencyToken(token)).toThrow(expect.objectContaining({ code: 'INVALID_CONSISTENCY_TOKEN' }));
  });
});
