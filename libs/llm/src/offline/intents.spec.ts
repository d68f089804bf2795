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

describe('detectIntent: media requests', () => {
  it.each([
    ['Make a poster for the spring fair', 'media'],
    ['please generate an image of a red fox at dusk', 'media'],
    ['draw me a cat on a skateboard', 'media'],
    ['Create a short video of waves', 'media'],
    ['make a 3d model of a teapot', 'media'],
    ['compose some calm music for the intro', 'media'],
    ['Fais-moi une affiche pour le concert', 'media'],
    ['Erstelle ein Bild von einem Leuchtturm', 'media'],
    ['Crea una imagen de un zorro', 'media'],
    ['帮我画一只猫', 'media'],
    ['做一张咖啡店开业的海报', 'media'],
    ['幫我生成一段產品視頻', 'media'],
    // The priority stays: a storyboard, a delete, an export naming an image is that.
    ['make a storyboard for a poster campaign', 'storyboard'],
    ['delete the poster image', 'delete'],
    ['export the images', 'export'],
    ['删除这张海报', 'delete'],
    ['做一个关于海报的分镜', 'storyboard'],
    // A note about an image is a note; "remember to make…" is a note too.
    ['create a note about the image', 'note'],
    ['remember to make a poster tomorrow', 'note'],
    ['Please take a note: generate an image later', 'note'],
    // No making verb, or the noun too far from it: nothing to make.
    ['the poster looks great', undefined],
    ['draw up the budget', undefined],
    ['我喜欢这幅画', undefined],
  ])('%j → %s', (text, intent) => {
    expect(detectIntent(text)).toBe(intent);
  });

  it('keeps the noun in the prompt: what follows the verb, else the whole message', () => {
    expect(payloadOf('Make a poster for the spring fair', 'media')).toBe('a poster for the spring fair');
    expect(payloadOf('draw me a cat on a skateboard', 'media')).toBe('a cat on a skateboard');
    expect(payloadOf('Fais-moi une affiche pour le concert', 'media')).toBe('une affiche pour le concert');
    expect(payloadOf('帮我画一只猫', 'media')).toBe('一只猫');
    const late = 'For the spring fair next week at the town hall, could you please make a poster';
    expect(payloadOf(late, 'media')).toBe(late);
  });

  it('picks the offered tool of the kind asked for, never the editor or the status look-up', () => {
    const media = [
      tool('image.generate', 'Make one image (picture, poster, illustration, photo) from a text prompt.'),
      tool('image.edit', 'Edit images of the workspace by a text prompt into one new image.'),
      tool('video.generate', 'Make a short video clip from a text prompt, or animate an image artefact.'),
      tool('model3d.generate', 'Make one 3D model from a text prompt or a reference image, as glb or gltf.'),
      tool('audio.generate', 'Make audio: speech or music from a description.'),
      tool('generation.status', 'Look up a media job (image, video, 3D, audio) by its id.'),
    ];
    const pick = (text: string) => pickTool(media, 'media', text)?.name;
    expect(pick('Make a poster for the spring fair')).toBe('image.generate');
    expect(pick('generate an image of a fox')).toBe('image.generate');
    expect(pick('Create a short video of waves')).toBe('video.generate');
    expect(pick('animate a clip from this image')).toBe('video.generate');
    expect(pick('make a 3d model of a teapot')).toBe('model3d.generate');
    expect(pick('compose some calm music')).toBe('audio.generate');
    expect(pick('做一张海报')).toBe('image.generate');
    expect(pickTool([tool('notes.create', 'Create a note')], 'media', 'make a poster')).toBeUndefined();
  });
});
