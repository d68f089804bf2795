/**
 * The offline policy's brief kinds (README.md beside this file, "Plans"): a video, a poster
 * series or a storyboard for a film, told apart by generic words in en, fr, de, es and Chinese,
 * never by example requests. What a brief is about (its subject) is read from the same words.
 */
import { MEDIA_PATTERNS } from './media-intent';
import { MAKING_VERBS, mentions, wordsOf } from './word-lists';

export const PLAN_KINDS = ['video', 'posterSeries', 'storyboard'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

// Letters and digits are the word boundary (JS \b is ASCII-only).
const term = (...alternatives: string[]) => `(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`;

/** A moving picture of some length: the nouns of a video brief. */
const VIDEO_LATIN = term(
  'videos?',
  'video clips?',
  'clips?',
  'films?',
  'short films?',
  'movies?',
  'animations?',
  'animated shorts?',
  'trailers?',
  'teasers?',
  'reels?',
  'commercials?',
  'vidéos?',
  'courts?-métrages?',
  'bandes?-annonces?',
  'kurzfilm\\p{L}*',
  'filme?',
  'vídeos?',
  'películas?',
  'cortometrajes?',
  'animación',
  'animaciones',
  'tráilers?',
);
const VIDEO_HAN = '视频|視頻|短片|动画|動畫|影片|电影|電影|预告片|預告片|宣传片|宣傳片|短视频|短視頻';
const VIDEO = new RegExp(`${VIDEO_LATIN}|${VIDEO_HAN}`, 'iu');

/** What a storyboard can be for: a film, an ad, a clip (the video nouns, and an ad). */
const FILMISH = new RegExp(
  `${VIDEO_LATIN}|${term('ads?', 'adverts?', 'spots?', 'pub', 'publicités?', 'werbespots?', 'werbung', 'anuncios?')}|${VIDEO_HAN}|广告|廣告`,
  'iu',
);

const STORYBOARD = new RegExp(
  `${term('storyboards?', 'story boards?', 'shot lists?', 'scénarimages?', 'guion(?:es)? gráficos?')}|分镜|分鏡|故事板`,
  'iu',
);

/** Images that come as several: the nouns of a poster series. */
const POSTER_LATIN =
  'posters?|images?|pictures?|illustrations?|banners?|flyers?|visuals?|affiches?|plakate?|bilder|poster|carteles|cartel|pósters?|imágenes|ilustraciones';
/** Plural nouns only after a series word: "set the image to blue" is no series. */
const POSTER_PLURAL =
  'posters|images|pictures|illustrations|banners|flyers|visuals|affiches|plakate|bilder|carteles|pósters|posteres|imágenes|ilustraciones';
const SERIES_LATIN =
  'series|set|sets|campaign|collection|range|sequence|suite|several|multiple|three|four|five|six|[2-9]|série|campagne|plusieurs|trois|quatre|serie|reihe|kampagne|mehrere|drei|vier|fünf|campaña|colección|varios|varias|tres|cuatro|cinco';
/** "a series of posters", "three posters", "série d'affiches", "Serie von Plakaten": the series word first. */
const SERIES_BEFORE = new RegExp(
  `${term(SERIES_LATIN)}(?:[\\s,'’-]+[\\p{L}\\p{N}'’]+){0,3}?[\\s'’-]+${term(POSTER_PLURAL)}`,
  'iu',
);
/** "poster series", "poster campaign", and German compounds ("Plakatserie", "Bilderreihe"). */
const SERIES_AFTER = new RegExp(
  `${term(`(?:${POSTER_LATIN})[\\s-]?(?:series|set|campaign|collection|serie|reihe|kampagne)`)}|(?:plakat|poster|bilder)(?:serie|reihe|kampagne)\\p{L}*`,
  'iu',
);
const HAN_IMAGE = '海报|海報|图片|圖片|插画|插畫|插图|插圖|图|圖';
const HAN_SERIES =
  '系列|一套|一组|一組|套|组|組|多张|多張|几张|幾張|[两兩二三四五六七八九十0-9]+张|[两兩二三四五六七八九十0-9]+張';
const SERIES_HAN = new RegExp(`(?:${HAN_SERIES})[^。！？!?，,\\n]{0,8}?(?:${HAN_IMAGE})|(?:海报|海報)系列`, 'u');

/** Wanting something, in words that are no making verb ("I need", 我想要). */
const WANTING = new RegExp(
  `${term(
    'want',
    'need',
    "i'd like",
    'would like',
    'looking for',
    'veux',
    'voudrais',
    'besoin',
    'souhaite',
    'brauche',
    'möchte',
    'hätte gern',
    'quiero',
    'necesito',
    'quisiera',
    'put together',
    'shoot',
    'tourne\\p{L}*',
    'dreh\\p{L}*',
    'rueda',
  )}|想要|需要|我要|帮我|幫我|请|請`,
  'iu',
);

const HAN_MAKING = /做|制作|製作|生成|设计|設計|创作|創作|拍|画|畫|写|寫|策划|策劃|准备|準備|出/u;

/** The making or wanting words a brief needs: a question about videos plans nothing. */
function asksForWork(text: string): boolean {
  if (WANTING.test(text) || HAN_MAKING.test(text)) return true;
  if (MEDIA_PATTERNS.some((p) => p.test(text))) return true;
  return mentions(text, wordsOf(text), MAKING_VERBS);
}

/**
 * The kind of a brief, or undefined for anything else (a one-shot poster, a question, a note).
 * A storyboard word with a film word is a storyboard brief; then a poster series; then a video.
 */
export function planKindOf(text: string): PlanKind | undefined {
  if (!asksForWork(text)) return undefined;
  if (STORYBOARD.test(text)) return FILMISH.test(text) ? 'storyboard' : undefined;
  if (SERIES_BEFORE.test(text) || SERIES_AFTER.test(text) || SERIES_HAN.test(text)) return 'posterSeries';
  if (VIDEO.test(text)) return 'video';
  return undefined;
}

// --- What a brief is about ---------------------------------------------------------------

const LEADING =
  /^(?:[\s:：,，.。;；!！-]|(?:of|about|for|on|showing|featuring|with|that shows|de|d'|du|des|sur|pour|avec|von|über|für|zum|zur|mit|sobre|para|del|con)(?![\p{L}]))+/iu;
const PREPOSITIONS = "of|about|for|on|showing|featuring|de|d'|du|des|sur|pour|von|über|für|zum|zur|sobre|para|del";
const AFTER_ADJECTIVES = new RegExp(`^\\s*(?:[\\p{L}'’-]+\\s+){1,2}?(?:${PREPOSITIONS})(?![\\p{L}])`, 'iu');
const TRAILING = /[\s.。!！?？,，;；:：]+$/u;
const ABOUT_ZH = /关于(.+?)的|關於(.+?)的/u;
/** Chinese fillers around the subject: verbs, measure words, lengths, the kind nouns. */
const HAN_FILLER = new RegExp(
  `请|請|帮我|幫我|给我|給我|我想要|我需要|想要|需要|我要|做|制作|製作|生成|设计|設計|创作|創作|拍|策划|策劃|准备|準備|` +
    `一个|一個|一套|一组|一組|一系列|一部|一支|一段|[0-9一二三四五六七八九十]+\\s*(?:秒|分钟|分鐘|张|張)的?|系列|` +
    `${VIDEO_HAN}|海报|海報|图片|圖片|插画|插畫|插图|插圖|分镜|分鏡|故事板|广告|廣告`,
  'gu',
);

/** The noun of the brief's kind in the text, the one the subject follows. */
function kindNoun(text: string, kind: PlanKind): RegExpExecArray | null {
  if (kind === 'posterSeries') return new RegExp(term(POSTER_LATIN), 'iu').exec(text) ?? SERIES_AFTER.exec(text);
  if (kind === 'storyboard') return new RegExp(`${FILMISH.source}`, 'iu').exec(text) ?? STORYBOARD.exec(text);
  return VIDEO.exec(text);
}

/**
 * What the brief is about: the words after its kind noun minus a leading preposition ("a video
 * of the harbour" → "the harbour"), 关于…的 in Chinese, else the text without the making words.
 */
export function subjectOf(text: string, kind: PlanKind, chinese: boolean): string {
  const trimmed = text.trim();
  const about = ABOUT_ZH.exec(trimmed);
  if (about) return clip(about[1] ?? about[2] ?? '');
  if (/\p{Script=Han}/u.test(trimmed)) {
    const rest = trimmed.replace(HAN_FILLER, '').replace(/^[为為给給替]/u, '');
    return clip(rest.replace(/^[\s的，,。]+|[\s的，,。]+$/gu, '')) || (chinese ? '这个主题' : 'the subject');
  }
  const noun = kindNoun(trimmed, kind);
  if (noun) {
    // An adjective or two may stand between the noun and its preposition ("un vídeo breve sobre").
    const rest = trimmed.slice(noun.index + noun[0].length);
    const prepositionFirst = new RegExp(`^\\s*(?:${PREPOSITIONS})(?![\\p{L}])`, 'iu').test(rest);
    const after = (prepositionFirst ? rest : rest.replace(AFTER_ADJECTIVES, '')).replace(LEADING, '');
    const cleanAfter = clip(after);
    if (cleanAfter !== '') return cleanAfter;
  }
  return clip(trimmed) || 'the subject';
}

const clip = (text: string) => text.replace(/\s+/g, ' ').trim().replace(TRAILING, '').slice(0, 120).trim();
