import { hasSimplifiedOnly } from './han-script';
import { ROUTER_PHRASE_KINDS, routerPhrase } from './router-phrases';

describe('routerPhrase', () => {
  it('writes every phrase in every language, quoting the goal where it names the task', () => {
    for (const language of ['en', 'fr', 'de', 'es', 'zh-Hans', 'zh-Hant']) {
      for (const kind of ROUTER_PHRASE_KINDS)
        expect(routerPhrase(kind, language, { goal: 'G' }).length).toBeGreaterThan(0);
      expect(routerPhrase('targetArchived', language, { goal: 'Goal-X' })).toContain('Goal-X');
    }
  });

  it('answers zh-Hant and zh-TW in Traditional characters and keeps the goal as written', () => {
    const text = routerPhrase('targetArchived', 'zh-TW', { goal: '这个' });
    expect(text).toContain('歸檔');
    expect(text).toContain('「这个」');
    expect(hasSimplifiedOnly(text.replace('这个', ''))).toBe(false);
    expect(hasSimplifiedOnly(routerPhrase('ambiguous', 'zh-Hant'))).toBe(false);
    expect(routerPhrase('ambiguous', 'zh-Hans')).toContain('这条');
  });

  it('maps regional tags to their language and anything unknown to English', () => {
    expect(routerPhrase('startNew', 'fr-CA')).toBe(routerPhrase('startNew', 'fr'));
    expect(routerPhrase('startNew', 'ja')).toBe('Start a new one');
    expect(routerPhrase('startNew', undefined)).toBe('Start a new one');
  });
});
