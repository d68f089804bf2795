import { decodeFeedCursor, encodeFeedCursor } from './feed-cursor';

describe('feed cursors', () => {
  it('wrap a store position opaquely and give it back', () => {
    const cursor = encodeFeedCursor('1234');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeFeedCursor(cursor)).toBe('1234');
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['another version', Buffer.from(JSON.stringify({ v: 2, p: '1' })).toString('base64url')],
    ['a pagination cursor', Buffer.from(JSON.stringify({ v: 1, o: 3 })).toString('base64url')],
  ])('refuse %s with VALIDATION_FAILED', (_what, cursor) => {
    expect(() => decodeFeedCursor(cursor)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});
