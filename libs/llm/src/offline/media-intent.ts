/**
 * The offline policy's media intent (README.md beside this file, "Media"): a request to make an
 * image, a video, a 3D model or audio. A making verb followed closely by a media noun ("make a
 * poster", 做一张海报), or a drawing verb on its own ("draw a fox", 画一只猫). Generic words in
 * en, fr, de, es and Chinese, never example requests.
 */
export const OFFLINE_MEDIA_KINDS = ['image', 'video', '3d', 'audio'] as const;
export type OfflineMediaKind = (typeof OFFLINE_MEDIA_KINDS)[number];

// Letters and digits are the word boundary ("3d" must not match inside "13d").
const term = (...alternatives: string[]) => `(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`;

const LATIN_VERBS = term(
  'make',
  'create',
  'generate',
  'design',
  'render',
  'produce',
  'compose',
  'record',
  'animate',
  'draw',
  'paint',
  'sketch',
  'illustrate',
  'fais',
  'faire',
  'faites',
  'crée\\p{L}*',
  'créer',
  'génère\\p{L}*',
  'générer',
  'dessine\\p{L}*',
  'conçois',
  'réalise\\p{L}*',
  'mach\\p{L}*',
  'erstell\\p{L}*',
  'generier\\p{L}*',
  'zeichne\\p{L}*',
  'gestalte\\p{L}*',
  'entwirf',
  'komponier\\p{L}*',
  'haz(?:me)?',
  'hacer',
  'crea\\p{L}*',
  'genera\\p{L}*',
  'dibuja\\p{L}*',
  'diseña\\p{L}*',
  'compón',
  'graba\\p{L}*',
);

/** Nouns by kind; 3D first so "3d model" is not read as anything else. */
const LATIN_NOUNS: Record<OfflineMediaKind, string> = {
  '3d': term('3d(?:[- ]?(?:models?|modell\\p{L}*|modèles?|modelos?|objects?|assets?))?', '3-d', 'three-d'),
  video: term(
    'videos?',
    'vidéos?',
    'vídeos?',
    'clips?',
    'animations?',
    'animación',
    'animaciones',
    'films?',
    'movies?',
  ),
  audio: term(
    'audio',
    'voice[- ]?overs?',
    'voices?',
    'narrations?',
    'speech',
    'music',
    'songs?',
    'jingles?',
    'soundtracks?',
    'musique',
    'chansons?',
    'voix',
    'musik',
    'lied(?:er)?',
    'stimme',
    'música',
    'canción',
    'canciones',
    'voz',
    'locución',
  ),
  image: term(
    'images?',
    'pictures?',
    'posters?',
    'illustrations?',
    'photos?',
    'drawings?',
    'paintings?',
    'banners?',
    'flyers?',
    'logos?',
    'icons?',
    'artworks?',
    'wallpapers?',
    'affiches?',
    'dessins?',
    'bild(?:er)?',
    'plakate?',
    'fotos?',
    'zeichnung(?:en)?',
    'illustration(?:en)?',
    'grafik(?:en)?',
    'imagen(?:es)?',
    'carteles?',
    'cartel',
    'póster(?:s|es)?',
    'ilustración',
    'ilustraciones',
    'dibujos?',
  ),
};

// Up to three words between verb and noun ("make me a big poster"), never a note word: "create a
// note about the image" is a note.
const LATIN_GAP = "(?:[\\s,-]+(?!(?:notes?|memos?|notiz\\p{L}*|notas?)(?![\\p{L}]))[\\p{L}\\p{N}'’]+){0,3}?[\\s,-]+";

const HAN_VERBS = '(?:做|制作|製作|生成|设计|設計|创作|創作|来|來|弄|拍|配|画|畫)';
const HAN_NOUNS: Record<OfflineMediaKind, string> = {
  '3d': '(?:3d模型|三维模型|三維模型|3d|三维|三維)',
  video: '(?:视频|視頻|影片|短片|动画|動畫)',
  audio: '(?:音频|音頻|配音|语音|語音|音乐|音樂|歌曲|旁白)',
  image: '(?:海报|海報|图片|圖片|图像|圖像|插画|插畫|插图|插圖|照片|壁纸|壁紙|头像|頭像|图|圖)',
};
// A clause, not the whole message: "做完了，再看看这张图" is no request for an image.
const HAN_GAP = '[^。！？!?，,\\n]{0,12}?';

const kindGroups = (nouns: Record<OfflineMediaKind, string>) =>
  OFFLINE_MEDIA_KINDS.map((kind) => `(?<${groupOf(kind)}>${nouns[kind]})`).join('|');
const groupOf = (kind: OfflineMediaKind) => (kind === '3d' ? 'model3d' : kind);

const LATIN_REQUEST = new RegExp(`(?<verb>${LATIN_VERBS})${LATIN_GAP}(?:${kindGroups(LATIN_NOUNS)})`, 'iu');
const HAN_REQUEST = new RegExp(`(?<verb>${HAN_VERBS})${HAN_GAP}(?:${kindGroups(HAN_NOUNS)})`, 'iu');
/** Drawing needs no noun: "draw a fox", 画一只猫 (画 as a verb: before a measure word, not 动画, 这幅画). */
const LATIN_DRAW = new RegExp(
  `(?<verb>${term('draw(?!\\s+up)', 'paint', 'sketch', 'dessine\\p{L}*', 'zeichne\\p{L}*', 'dibuja\\p{L}*')})`,
  'iu',
);
const HAN_DRAW = /(?<verb>(?<![动動漫])[画畫])(?=[一个個张張幅只隻出])/u;

/** Every pattern that marks a media request, for the intent table (intents.ts). */
export const MEDIA_PATTERNS: readonly RegExp[] = [LATIN_REQUEST, HAN_REQUEST, LATIN_DRAW, HAN_DRAW];

export interface MediaRequest {
  kind: OfflineMediaKind;
  /** Where the making verb starts and ends: the prompt is what follows it. */
  verbStart: number;
  verbEnd: number;
}

/** The media request in a message: the earliest verb with the noun nearest after it. */
export function mediaRequestOf(text: string): MediaRequest | undefined {
  const found: MediaRequest[] = [];
  for (const pattern of [LATIN_REQUEST, HAN_REQUEST]) {
    const match = pattern.exec(text);
    if (!match?.groups) continue;
    const kind = OFFLINE_MEDIA_KINDS.find((k) => match.groups?.[groupOf(k)] !== undefined) ?? 'image';
    found.push({ kind, verbStart: match.index, verbEnd: match.index + match.groups.verb.length });
  }
  for (const pattern of [LATIN_DRAW, HAN_DRAW]) {
    const match = pattern.exec(text);
    if (match?.groups)
      found.push({ kind: 'image', verbStart: match.index, verbEnd: match.index + match.groups.verb.length });
  }
  return found.sort((a, b) => a.verbStart - b.verbStart)[0];
}

const PROMPT_FILLER = /^(?:[\s:：,，.。;；!！-]|(?:me|us|moi|nous|mir|uns|nos)(?!\p{L}))+/iu;

/**
 * The prompt: what follows the verb when the verb leads the message ("please make a poster for
 * the opening" → "a poster for the opening"), else the whole message.
 */
export function mediaPromptOf(text: string): string {
  const trimmed = text.trim();
  const request = mediaRequestOf(trimmed);
  if (!request || request.verbStart > Math.max(24, trimmed.length * 0.4)) return trimmed;
  const rest = trimmed.slice(request.verbEnd).replace(PROMPT_FILLER, '').trim();
  return rest.length > 0 ? rest : trimmed;
}

const GENERIC_AVOID = ['edit', 'delete', 'remove', 'status', 'search', 'list', 'read', 'export', 'note', 'document'];
const MAKING = ['generate', 'make', 'create', 'new', 'draw', 'compose', 'render'];

/** Words of the offered tool that fit each kind (the same scoring as intents.ts). */
export const MEDIA_TOOL_WORDS: Record<
  OfflineMediaKind,
  { core: readonly string[]; verbs: readonly string[]; avoid: readonly string[] }
> = {
  image: {
    core: ['image', 'picture', 'poster', 'illustration', 'photo', 'drawing'],
    verbs: MAKING,
    avoid: [...GENERIC_AVOID, 'video', 'audio', 'model3d', '3d'],
  },
  // Image to video and image to 3D mention images: no penalty for the word there.
  video: {
    core: ['video', 'clip', 'animation', 'film', 'movie'],
    verbs: MAKING,
    avoid: [...GENERIC_AVOID, 'audio', 'model3d'],
  },
  '3d': { core: ['model3d', '3d', 'mesh', 'glb', 'gltf'], verbs: MAKING, avoid: [...GENERIC_AVOID, 'video', 'audio'] },
  audio: {
    core: ['audio', 'speech', 'music', 'voice', 'sound', 'song'],
    verbs: MAKING,
    avoid: [...GENERIC_AVOID, 'video', 'model3d'],
  },
};

/** The kind a tool makes, read from its name ("image.generate", "model3d.generate"). */
export function mediaKindOfTool(name: string): OfflineMediaKind | undefined {
  const words = name.toLowerCase().split(/[^a-z0-9]+/);
  if (words.some((w) => w === '3d' || w === 'model3d')) return '3d';
  return OFFLINE_MEDIA_KINDS.find((kind) => words.includes(kind));
}
