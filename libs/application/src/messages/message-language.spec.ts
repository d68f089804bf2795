import { messageLanguage } from './message-language';

describe('messageLanguage', () => {
  it('records Chinese with its script, Traditional and Simplified apart', () => {
    expect(messageLanguage('幫我設計一張海報', undefined)).toBe('zh-Hant');
    expect(messageLanguage('帮我设计一张海报', undefined)).toBe('zh-Hans');
  });

  it('refines a bare zh from the client by the text, and keeps any other given tag', () => {
    expect(messageLanguage('幫我設計一張海報', 'zh')).toBe('zh-Hant');
    expect(messageLanguage('帮我设计一张海报', 'zh-TW')).toBe('zh-TW');
    expect(messageLanguage('hello there', 'fr')).toBe('fr');
  });

  it('falls back to English when the text gives no sign', () => {
    expect(messageLanguage('ok', undefined)).toBe('en');
  });
});
