import { detectIntent, payloadOf, pickTool } from './intents';
import { declaredLanguage, detectLanguage, replyLanguage } from './language';

const tool = (name: string, description = '') => ({ name, description, parameters: { type: 'object' } });

describe('offline intents', () => {
  it.each([
    ['delete my note about milk', 'delete'],
    ['remember what happened yesterday', 'history'],
    ['exportiere alle Notizen', 'export'],
    ['Lösche die Notiz', 'delete'],
    ['¿Qué pasó hoy?', 'history'],
    ['帮我记一下明天开会', 'note'],
    ['denote the footnote', undefined],
    ['good morning', undefined],
  ])('%j → %s', (text, intent) => {
    expect(detectIntent(text)).toBe(intent);
  });

  it('keeps what follows a leading keyword as the note, else the whole message', () => {
    expect(payloadOf('Please take a note: call Bob at 5', 'note')).toBe('call Bob at 5');
    expect(payloadOf('note down milk', 'note')).toBe('milk');
    expect(payloadOf('Souviens-toi que le client aime le bleu', 'note')).toBe('le client aime le bleu');
    expect(payloadOf('remember tomorrow is free', 'note')).toBe('tomorrow is free');
    expect(payloadOf('the client likes blue, remember', 'note')).toBe('the client likes blue, remember');
  });

  it('picks the best-fitting offered tool, never its neighbours, ties by name', () => {
    const tools = [
      tool('list_notes', 'List notes'),
      tool('delete_note'),
      tool('notes_add', 'Add a note'),
      tool('take_note'),
    ];
    expect(pickTool(tools, 'note')?.name).toBe('notes_add');
    expect(pickTool(tools, 'delete')?.name).toBe('delete_note');
    expect(pickTool(tools, 'export')).toBeUndefined();
    expect(pickTool([tool('b_note'), tool('a_note')], 'note')?.name).toBe('a_note');
  });
});

describe('replyLanguage', () => {
  it.each([
    ['zh-Hant', 'zh-Hant'],
    ['zh-TW', 'zh-Hant'],
    ['zh-Hant-HK', 'zh-Hant'],
    ['zh-HK', 'zh-Hant'],
    ['zh', 'zh-Hans'],
    ['zh-CN', 'zh-Hans'],
    ['zh-Hans', 'zh-Hans'],
    ['fr-CA', 'fr'],
    ['de', 'de'],
    ['ja', 'en'],
    [undefined, 'en'],
  ])('%s → %s', (tag, language) => {
    expect(replyLanguage(tag)).toBe(language);
  });
});

describe('detectLanguage', () => {
  it.each([
    ['记住这个', 'zh-Hans'],
    ['幫我畫一張圖', 'zh-Hant'],
    ['帮我画一张图', 'zh-Hans'],
    ['這個顏色還可以嗎', 'zh-Hant'],
    ['你好', 'zh-Hans'],
    ['Merci pour tout, à demain', 'fr'],
    ['Ich möchte eine Notiz', 'de'],
    ['¿Puedes ayudarme?', 'es'],
    ['Please help', 'en'],
    ['ok', undefined],
    ['', undefined],
  ])('%j → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('reads a language the caller declared in a system message', () => {
    expect(declaredLanguage(['Task goal: x\nLanguage of the person: fr\nTask kind: persistent'])).toBe('fr');
    expect(declaredLanguage(['Reply language: zh-CN'])).toBe('zh-Hans');
    expect(declaredLanguage(['Reply language: zh-TW'])).toBe('zh-Hant');
    expect(declaredLanguage(['Reply language: zh-Hant'])).toBe('zh-Hant');
    expect(declaredLanguage(['Language: ja', 'nothing here'])).toBeUndefined();
  });
});

describe('detectIntent: a leading note request', () => {
  it('is a note whatever words follow it (a storyboard mentioned in the note stays a note)', () => {
    expect(detectIntent('Please take a note: storyboard the lighthouse sequence in six panels')).toBe('note');
    expect(detectIntent('note: delete the old logo files later')).toBe('note');
    expect(detectIntent('make a storyboard for a lighthouse keeper at dawn')).toBe('storyboard');
    expect(detectIntent('delete the storyboard')).toBe('delete');
  });
});
