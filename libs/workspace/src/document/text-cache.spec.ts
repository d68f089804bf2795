import { TextCache } from './text-cache';

describe('TextCache (texts by hash, least recently used out first)', () => {
  it('evicts the least recently used texts once the total length passes the bound', () => {
    const cache = new TextCache(10);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa'); // a is now the most recently used
    cache.set('c', 'cccc');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['aaaa', undefined, 'cccc']);
    expect(cache.chars).toBe(8);
  });

  it('does not hold a text larger than the whole bound, and counts a re-set once', () => {
    const cache = new TextCache(5);
    cache.set('big', 'x'.repeat(6));
    expect(cache.get('big')).toBeUndefined();
    cache.set('a', 'aa');
    cache.set('a', 'aa');
    expect({ count: cache.count, chars: cache.chars }).toEqual({ count: 1, chars: 2 });
  });

  it('forgets a text on delete, its characters with it', () => {
    const cache = new TextCache(10);
    cache.set('a', 'aaaa');
    cache.set('b', 'bb');
    cache.delete('a');
    cache.delete('missing');
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, 'bb']);
    expect({ count: cache.count, chars: cache.chars }).toEqual({ count: 1, chars: 2 });
  });
});
