/**
 * What the offline policy plans for each brief kind and what it writes for each item
 * (README.md beside this file, "Plans"): item ids and dependencies, titles in the person's
 * language, and the documents and media prompts as generic film and design grammar that names
 * the subject. Never example requests.
 */
import type { OfflineLanguage } from './language';
import type { ItemOutput } from './plan-context';
import type { PlanKind } from './plan-kinds';

type Titles = Record<'en' | 'zh' | 'fr' | 'de' | 'es', string>;

export interface PlannedItem {
  itemId: string;
  titles: Titles;
  dependsOn: readonly string[];
  /** The person reviews this stage before anything after it runs. */
  needsConfirmation: boolean;
  /**
   * What the item delivers, sent as checklist.plan's `output` so that "done" is checked against
   * it: a document (an artefact version written with document.write), or `count` generations of
   * one media kind (one call each; the runtime quotes them for the plan's budget card).
   */
  output: Exclude<ItemOutput, { kind: 'decision' }>;
}

const SCRIPT: Titles = { en: 'Script', zh: '脚本', fr: 'Script', de: 'Drehbuch', es: 'Guion' };
const STORYBOARD: Titles = { en: 'Storyboard', zh: '分镜', fr: 'Storyboard', de: 'Storyboard', es: 'Storyboard' };
const SHOTS: Titles = { en: 'Shots', zh: '镜头', fr: 'Plans', de: 'Einstellungen', es: 'Tomas' };
const CONCEPT: Titles = { en: 'Concept', zh: '概念', fr: 'Concept', de: 'Konzept', es: 'Concepto' };
const LAYOUTS: Titles = { en: 'Layouts', zh: '版式', fr: 'Mises en page', de: 'Layouts', es: 'Maquetas' };
const POSTERS: Titles = { en: 'Posters', zh: '海报', fr: 'Affiches', de: 'Plakate', es: 'Carteles' };
const OUTLINE: Titles = { en: 'Outline', zh: '大纲', fr: 'Synopsis', de: 'Exposé', es: 'Sinopsis' };

/** Shots a video is made of and posters a series has: one generation call each. */
export const SHOT_COUNT = 3;
export const POSTER_COUNT = 3;

const doc = { kind: 'artifact' } as const;

export const PLANS: Record<PlanKind, readonly PlannedItem[]> = {
  video: [
    { itemId: 'script', titles: SCRIPT, dependsOn: [], needsConfirmation: false, output: doc },
    { itemId: 'storyboard', titles: STORYBOARD, dependsOn: ['script'], needsConfirmation: true, output: doc },
    {
      itemId: 'shots',
      titles: SHOTS,
      dependsOn: ['storyboard'],
      needsConfirmation: false,
      output: { kind: 'media', media: 'video', count: SHOT_COUNT },
    },
  ],
  posterSeries: [
    { itemId: 'concept', titles: CONCEPT, dependsOn: [], needsConfirmation: false, output: doc },
    { itemId: 'layouts', titles: LAYOUTS, dependsOn: ['concept'], needsConfirmation: true, output: doc },
    {
      itemId: 'posters',
      titles: POSTERS,
      dependsOn: ['layouts'],
      needsConfirmation: false,
      output: { kind: 'media', media: 'image', count: POSTER_COUNT },
    },
  ],
  storyboard: [
    { itemId: 'outline', titles: OUTLINE, dependsOn: [], needsConfirmation: false, output: doc },
    { itemId: 'storyboard', titles: STORYBOARD, dependsOn: ['outline'], needsConfirmation: true, output: doc },
  ],
};

/** The item the policy planned under this id (the checklist lines show ids, not dependencies). */
export function plannedItem(itemId: string): PlannedItem | undefined {
  for (const kind of ['video', 'posterSeries', 'storyboard'] as const) {
    const found = PLANS[kind].find((i) => i.itemId === itemId);
    // "storyboard" is planned by two kinds alike: the same work, the same review.
    if (found) return found;
  }
  return undefined;
}

export const titleKey = (language: OfflineLanguage): keyof Titles =>
  language.startsWith('zh') ? 'zh' : (language as Exclude<OfflineLanguage, 'zh-Hans' | 'zh-Hant'>);

// --- Documents --------------------------------------------------------------------------------

type Section = { heading: string; line: (subject: string) => string };
type Sections = Record<'en' | 'zh', readonly Section[]>;

/** The storyboard's shots; the shots' prompts are read from the same lines. */
const STORYBOARD_SHOTS: Sections = {
  en: [
    {
      heading: 'Shot 1: Establishing',
      line: (s) => `Wide shot that sets the scene for ${s}. Slow push in, 4 seconds.`,
    },
    { heading: 'Shot 2: Action', line: (s) => `Medium shot: ${s} in motion, one clear action. Handheld, 4 seconds.` },
    {
      heading: 'Shot 3: Closing',
      line: (s) => `Close-up on one telling detail of ${s}, then pull back wide. Hold, 4 seconds.`,
    },
  ],
  zh: [
    { heading: '镜头 1：远景', line: (s) => `远景交代${s}的环境，缓慢推进，4 秒。` },
    { heading: '镜头 2：中景', line: (s) => `中景表现${s}的一个清楚的动作，手持，4 秒。` },
    { heading: '镜头 3：收尾', line: (s) => `特写${s}的一个细节，再拉远到全景，停留 4 秒。` },
  ],
};

const LAYOUT_SECTIONS: Sections = {
  en: [
    {
      heading: 'Poster 1: Hero image',
      line: (s) => `One large image of ${s}, title across the top third, date below.`,
    },
    { heading: 'Poster 2: Detail', line: (s) => `A close crop on one detail of ${s}, short line of text in a corner.` },
    { heading: 'Poster 3: Type-led', line: (s) => `Big type names ${s}; a small image anchors the bottom edge.` },
  ],
  zh: [
    { heading: '海报 1：主视觉', line: (s) => `一张${s}的大图，标题在上三分之一，日期在下方。` },
    { heading: '海报 2：细节', line: (s) => `${s}的一个细节特写，角落一行短文字。` },
    { heading: '海报 3：文字为主', line: (s) => `大字写出${s}，底边一张小图。` },
  ],
};

const SECTIONS: Record<string, Sections> = {
  script: {
    en: [
      {
        heading: 'Opening',
        line: (s) => `We meet ${s}: a quiet wide view, one line of voice-over that names the place.`,
      },
      { heading: 'Middle', line: (s) => `${s} in motion: two or three moments that build, each a beat longer.` },
      { heading: 'Ending', line: (s) => `A last look at ${s}; the voice-over closes on one image the viewer keeps.` },
    ],
    zh: [
      { heading: '开场', line: (s) => `认识${s}：安静的远景，一句旁白点出地点。` },
      { heading: '中段', line: (s) => `${s}动起来：两三个逐渐推进的时刻，一个比一个长一点。` },
      { heading: '结尾', line: (s) => `最后看一眼${s}，旁白落在一个让人记住的画面上。` },
    ],
  },
  storyboard: STORYBOARD_SHOTS,
  outline: {
    en: [
      { heading: 'Setup', line: (s) => `Where and when: ${s} as we first see it.` },
      { heading: 'Turn', line: (s) => `What changes for ${s}, in one action the camera can show.` },
      { heading: 'Resolution', line: (s) => `How ${s} ends up; the last image answers the first.` },
    ],
    zh: [
      { heading: '铺垫', line: (s) => `时间和地点：第一次看到的${s}。` },
      { heading: '转折', line: (s) => `${s}发生了什么变化，用一个镜头能拍到的动作表现。` },
      { heading: '结局', line: (s) => `${s}最后怎样；最后一个画面呼应第一个。` },
    ],
  },
  concept: {
    en: [
      { heading: 'Idea', line: (s) => `One idea carries the series: ${s}, seen three ways.` },
      { heading: 'Palette', line: () => 'Two main colours and one accent, the same on every poster.' },
      { heading: 'Type', line: () => 'One display face for titles, one plain face for details.' },
      { heading: 'Tone', line: (s) => `Direct and warm; every poster names ${s}.` },
    ],
    zh: [
      { heading: '核心想法', line: (s) => `一个想法贯穿整套：从三个角度看${s}。` },
      { heading: '配色', line: () => '两种主色加一种点缀色，每张海报一致。' },
      { heading: '字体', line: () => '标题用一种展示字体，细节用一种朴素字体。' },
      { heading: '语气', line: (s) => `直接、温暖；每张海报都点出${s}。` },
    ],
  },
  layouts: LAYOUT_SECTIONS,
};

/** Sections for an item the policy did not plan: a plain three-part document. */
const GENERIC: Sections = {
  en: [
    { heading: 'Goal', line: (s) => `What this stage delivers for ${s}.` },
    { heading: 'Content', line: (s) => `The main points about ${s}, in order.` },
    { heading: 'Next', line: () => 'What the next stage takes from here.' },
  ],
  zh: [
    { heading: '目标', line: (s) => `这一步为${s}交付什么。` },
    { heading: '内容', line: (s) => `关于${s}的要点，按顺序。` },
    { heading: '下一步', line: () => '下一步从这里继续做什么。' },
  ],
};

/** The section that carries the person's note from an "adjust" review into the next version. */
export const revisionSection = (note: string, chinese: boolean): string =>
  chinese ? `## 修改意见\n\n${note}` : `## Revision\n\nAfter review: ${note}`;

/** document.write arguments for an item: title `<Item title>: <subject>`, markdown sections. */
export function itemDocument(
  itemId: string,
  itemTitle: string,
  subject: string,
  chinese: boolean,
  adjustNote?: string,
): { title: string; text: string } {
  const sections = (SECTIONS[itemId] ?? GENERIC)[chinese ? 'zh' : 'en'];
  const title = chinese ? `${itemTitle}：${subject}` : `${itemTitle}: ${subject}`;
  const parts = [`# ${title}`];
  // The person's note leads the rewrite, and every section says it was taken into account.
  if (adjustNote !== undefined) parts.push(revisionSection(adjustNote, chinese));
  for (const section of sections) {
    const line = section.line(subject);
    const revised =
      adjustNote === undefined
        ? line
        : `${line} ${chinese ? `（按修改意见：${adjustNote}）` : `(Revised: ${adjustNote}.)`}`;
    parts.push(`## ${section.heading}\n\n${revised}`);
  }
  return { title: title.slice(0, 300), text: `${parts.join('\n\n')}\n` };
}

/** The prompt of the n-th shot (poster) of a media item, from its storyboard (layout) section. */
export function mediaPrompt(itemId: string, index: number, subject: string, chinese: boolean): string {
  const sections = (itemId === 'posters' ? LAYOUT_SECTIONS : STORYBOARD_SHOTS)[chinese ? 'zh' : 'en'];
  const section = sections[index % sections.length];
  return `${section.heading}. ${section.line(subject)}`.slice(0, 1_000);
}
