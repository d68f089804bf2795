import { overlap, tokenSet, tokenize } from './tokenize';

describe('tokenize', () => {
  it('keeps content words, drops function words, and lightly stems English', () => {
    expect(tokenize('Make the posters from last time warmer')).toEqual(['poster', 'last', 'time', 'warmer']);
  });

  it('turns a Han run into character bigrams, so words of any length match by their pairs', () => {
    expect(tokenize('海报设计')).toEqual(['海报', '报设', '设计']);
    expect(overlap(tokenSet('把海报改暖一点'), tokenSet('春季海报设计'))).toBeGreaterThan(0);
  });

  it('normalises full-width forms and case before matching', () => {
    expect(tokenize('ＰＯＳＴＥＲ')).toEqual(['poster']);
  });

  it('mixes scripts in one text', () => {
    expect(tokenize('logo 设计 v2')).toEqual(['logo', '设计', 'v2']);
  });

  it('overlap is the share of query tokens found, and 0 for an empty query', () => {
    expect(overlap(tokenSet('blue poster'), tokenSet('poster series'))).toBe(0.5);
    expect(overlap(new Set(), tokenSet('poster'))).toBe(0);
  });
});
