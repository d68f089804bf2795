import { chineseScript } from './han-script';

export const OFFLINE_LANGUAGES = ['en', 'zh-Hans', 'zh-Hant', 'fr', 'de', 'es'] as const;
export type OfflineLanguage = (typeof OFFLINE_LANGUAGES)[number];
type LatinLanguage = Exclude<OfflineLanguage, 'zh-Hans' | 'zh-Hant'>;

const HAN = /\p{Script=Han}/u;

// Short function words and greetings: enough to tell five languages apart in a chat message.
const MARKER_WORDS: Record<LatinLanguage, readonly string[]> = {
  en: ['the', 'and', 'is', 'are', 'you', 'please', 'what', 'my', 'hello', 'hi', 'thanks', 'remember', 'to', 'of', 'it'],
  fr: [
    'bonjour',
    'salut',
    'merci',
    'je',
    'tu',
    'vous',
    'est',
    'les',
    'des',
    'une',
    'et',
    'pour',
    'avec',
    'mon',
    'ma',
    'mes',
    'oui',
    'ce',
    'qui',
    'que',
    'noter',
    'souviens',
  ],
  de: [
    'hallo',
    'danke',
    'ich',
    'du',
    'und',
    'ist',
    'der',
    'die',
    'das',
    'nicht',
    'bitte',
    'mein',
    'meine',
    'was',
    'ein',
    'eine',
    'mit',
    'für',
    'notiz',
    'guten',
    'tag',
  ],
  es: [
    'hola',
    'gracias',
    'yo',
    'usted',
    'el',
    'los',
    'las',
    'una',
    'y',
    'por',
    'favor',
    'qué',
    'mi',
    'mis',
    'con',
    'para',
    'nota',
    'recuerda',
    'buenos',
    'días',
  ],
};

const ACCENT_HINTS: ReadonlyArray<[Exclude<LatinLanguage, 'en'>, RegExp]> = [
  ['fr', /[èêàçœùû]/gu],
  ['de', /[äöüß]/gu],
  ['es', /[ñ¿¡íóú]/gu],
];

/**
 * The language of a user's message among those the offline policy speaks, Chinese with its
 * script (zh-Hant or zh-Hans, see han-script.ts); undefined when the text gives no sign.
 */
export function detectLanguage(text: string): OfflineLanguage | undefined {
  if (HAN.test(text)) return chineseScript(text);
  const lower = text.toLowerCase();
  const words = lower.split(/[^\p{L}]+/u).filter(Boolean);
  const scores = { en: 0, fr: 0, de: 0, es: 0 };
  for (const word of words) {
    for (const [language, markers] of Object.entries(MARKER_WORDS) as Array<[keyof typeof scores, readonly string[]]>) {
      if (markers.includes(word)) scores[language] += 1;
    }
  }
  for (const [language, pattern] of ACCENT_HINTS) scores[language] += 2 * (lower.match(pattern)?.length ?? 0);
  // Ties go to the earlier language in this order, English first.
  let best: keyof typeof scores = 'en';
  for (const language of ['fr', 'de', 'es'] as const) if (scores[language] > scores[best]) best = language;
  return scores[best] > 0 ? best : undefined;
}

const DECLARED = /\blanguage\b[^:\n]{0,40}:\s*([a-z]{2,3}(?:-[a-z0-9]{2,8})*)(?![a-z0-9-])/i;

/**
 * A language the caller stated in a system message ("Language of the person: fr"), for short
 * replies like "ok" whose words say nothing. Any wording with "language ...: xx" works.
 */
export function declaredLanguage(systemTexts: readonly string[]): OfflineLanguage | undefined {
  for (const text of systemTexts) {
    const tag = DECLARED.exec(text)?.[1];
    const primary = tag?.toLowerCase().split('-')[0];
    if (primary === 'zh' || OFFLINE_LANGUAGES.some((l) => l === primary)) return replyLanguage(tag);
  }
  return undefined;
}

const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo']);

/**
 * The language to answer a BCP 47 tag in, among those the offline texts are written in: zh with
 * a Hant script or a Traditional region (TW, HK, MO) → zh-Hant, other zh → zh-Hans, a known
 * primary language as is, anything else → English.
 */
export function replyLanguage(tag: string | undefined): OfflineLanguage {
  const parts = (tag ?? '').toLowerCase().split(/[-_]/);
  const primary = parts[0] ?? '';
  if (primary === 'zh') {
    if (parts.includes('hant')) return 'zh-Hant';
    if (parts.includes('hans')) return 'zh-Hans';
    return parts.some((p) => TRADITIONAL_REGIONS.has(p)) ? 'zh-Hant' : 'zh-Hans';
  }
  return OFFLINE_LANGUAGES.find((l) => l === primary) ?? 'en';
}
