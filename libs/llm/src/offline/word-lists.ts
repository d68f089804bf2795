/**
 * Generic word lists of the offline routing policy (routing-policy.ts), in en, fr, de, es and
 * Chinese (both scripts). Words, not example messages: Latin entries match whole words of the
 * lowercased text, Han entries match as substrings.
 */
export interface WordList {
  latin: readonly string[];
  han: readonly string[];
}

const list = (latin: string, han: string): WordList => ({
  latin: latin.split(' ').filter(Boolean),
  han: han.split(' ').filter(Boolean),
});

export const GREETINGS = list(
  'hi hello hey hiya morning evening bonjour salut coucou hallo servus moin hola buenas',
  '你好 您好 嗨 早上好 晚上好 哈喽 哈囉',
);

export const THANKS = list('thanks thank thx cheers merci danke gracias', '谢谢 謝謝 多谢 多謝 感谢 感謝');

/** Verbs that ask for something to be made or changed. */
export const MAKING_VERBS = list(
  'make create draw design generate write render paint produce build translate compose draft edit change ' +
    'turn redo adjust update fix add remove replace plan prepare sketch illustrate animate recolor recolour resize crop ' +
    'take note remember save keep find search research summarize summarise list collect organise organize book schedule send ' +
    'fais faire crée créer créez dessine dessiner écris écrire génère générer traduis traduire conçois modifie modifier change changer ' +
    'mach mache machen erstelle erstellen zeichne zeichnen schreibe schreiben generiere übersetze übersetzen entwirf gestalte ändere ändern ' +
    'haz hacer crea crear dibuja dibujar escribe escribir genera generar traduce traducir diseña diseñar cambia cambiar',
  '做 画 畫 生成 设计 設計 写 寫 翻译 翻譯 制作 製作 创建 創建 创作 創作 改 换 換 调 調 帮我 幫我 来一 來一 弄 加上 去掉 记 記 整理 查 搜 计划 計劃 安排',
);

/** Objects of a one-shot job (article §2.2: a lightweight task). Singular forms only. */
export const ONE_SHOT_OBJECTS = list(
  'image picture photo drawing icon sticker avatar emoji meme caption sentence quick translation ' +
    'dessin traduction rapide bild foto zeichnung übersetzung schnell schnelle imagen dibujo traducción rápida',
  '一张 一張 一幅 一个图 一個圖 图片 圖片 头像 頭像 表情 一句 翻译一下 翻譯一下 一下',
);

/** Marks of a multi-step goal or a series (a persistent task). */
export const SERIES_MARKERS = list(
  'campaign series several plan project set sets multiple collection weekly monthly steps launch strategy roadmap ' +
    'campagne série plusieurs projet kampagne serie mehrere projekt campaña varios varias proyecto',
  '系列 套 计划 計劃 计画 計畫 项目 項目 多张 多張 几张 幾張 活动 活動 方案 每周 每週',
);

/** Counts of pieces ("three posters", 三张): they say how many, not what about. */
export const COUNTS = list(
  'two three four five six seven eight nine ten eleven twelve dozen pair couple ' +
    'deux trois quatre cinq six sept huit neuf dix zwei drei vier fünf sechs sieben acht neun zehn ' +
    'dos tres cuatro cinco seis siete ocho nueve diez',
  '两张 兩張 三张 三張 四张 四張 五张 五張 六张 六張 两个 兩個 三个 三個 两套 兩套 三套 两幅 兩幅 三幅',
);

/** Words pointing back at something just made ("it", "that one", "again"). */
export const DEICTICS = list(
  'it its that this them those these same ça cela pareil das dies diese dieses gleiche eso esto',
  '它 这个 這個 那个 那個 这张 這張 那张 那張 这些 這些 那些 同样 同樣',
);

/** Pointing back in time ("the last set", 上次): a follow-up even beside a series word. */
export const BACK_REFERENCES = list(
  'last previous earlier dernier dernière letzte letzten último última',
  '上次 刚才 剛才 之前',
);

/** "Again": a repeat of the last job, even beside a one-shot object ("one more, again"). */
export const AGAIN = list('again encore nochmal wieder otra', '再');

/** How a change is asked for (degree, direction, attribute): they say nothing about which work. */
export const MODIFIERS = list(
  'last previous earlier time bit little more less slightly much warmer cooler brighter darker bigger smaller larger ' +
    'shorter longer lighter bolder softer version colour color colours colors font size tone style please now also too very ' +
    'plus moins peu couleur mehr weniger bisschen farbe más menos poco',
  '一点 一點 一些 颜色 顏色 字体 字體 改成 变成 變成 大 小 暖 冷 亮 暗 些',
);

/** Words asking for something new beside what exists ("another", "a new one"). */
export const NEW_MARKERS = list(
  'new another fresh separate nouveau nouvelle autre neue neuen neues andere nuevo nueva otro',
  '新 另一 另外',
);

/** Words of a question. */
export const QUESTION_WORDS = list(
  'what which how why when where who whom can could does do is are will would ' +
    'quoi quel quelle quels comment pourquoi quand où est-ce peux pouvez ' +
    'was welche welcher wie warum wann wo wer kannst können ' +
    'qué cuál cuáles cómo por dónde cuándo quién puedes puede',
  '吗 嗎 什么 什麼 怎么 怎麼 哪 为什么 為什麼 能不能 可不可以 是否 多少',
);

/** Words of a question about what the assistant can do. */
export const CAPABILITY_WORDS = list(
  'capabilities capability features abilities able help peux-tu kannst puedes fonctionnalités funktionen funciones',
  '你能 你会 你會 能做 功能 会什么 會什麼 能干 幫什麼 帮什么',
);

const WORDS = /[\p{L}\p{N}][\p{L}\p{N}\p{M}'’-]*/gu;

/** The lowercased Latin-script words of a text (apostrophes kept inside a word). */
export function wordsOf(text: string): string[] {
  return [...text.normalize('NFKC').toLowerCase().matchAll(WORDS)].map((m) => m[0]);
}

/** True when the text holds an entry of the list (whole word, or Han substring). */
export function mentions(text: string, words: readonly string[], list: WordList): boolean {
  if (list.han.some((h) => text.includes(h))) return true;
  return words.some((w) => list.latin.includes(w));
}

/** Indefinite articles and counters: after a making verb they introduce a new object ("make a …", 做一张). */
export const INDEFINITES = list(
  'a an one un une ein eine einen uno una',
  '一个 一個 一张 一張 一份 一套 一幅 一篇 一首 一组 一組',
);
