export const OFFLINE_LANGUAGES = ['en', 'zh', 'fr', 'de', 'es'] as const;
export type OfflineLanguage = (typeof OFFLINE_LANGUAGES)[number];

const HAN = /\p{Script=Han}/u;

// Short function words and greetings: enough to tell five languages apart in a chat message.
const MARKER_WORDS: Record<Exclude<OfflineLanguage, 'zh'>, readonly string[]> = {
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

const ACCENT_HINTS: ReadonlyArray<[Exclude<OfflineLanguage, 'zh' | 'en'>, RegExp]> = [
  ['fr', /[èêàçœùû]/gu],
  ['de', /[äöüß]/gu],
  ['es', /[ñ¿¡íóú]/gu],
];

/** The language of a user's message among the five the offline policy speaks; undefined when the text gives no sign. */
export function detectLanguage(text: string): OfflineLanguage | undefined {
  if (HAN.test(text)) return 'zh';
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

const DECLARED = /\blanguage\b[^:\n]{0,40}:\s*([a-z]{2})(?![a-z])/i;

/**
 * A language the caller stated in a system message ("Language of the person: fr"), for short
 * replies like "ok" whose words say nothing. Any wording with "language ...: xx" works.
 */
export function declaredLanguage(systemTexts: readonly string[]): OfflineLanguage | undefined {
  for (const text of systemTexts) {
    const code = DECLARED.exec(text)?.[1]?.toLowerCase();
    const known = OFFLINE_LANGUAGES.find((l) => l === code);
    if (known) return known;
  }
  return undefined;
}
