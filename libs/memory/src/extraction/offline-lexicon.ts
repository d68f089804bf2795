import { toTraditional } from '@lomo/llm';

/**
 * The words the offline rules know (libs/memory/README.md, "Offline extraction rules"): colours,
 * palettes, visual styles and aspect ratios, in English and Chinese. Values are canonical English
 * so that 藍色, 蓝色 and "blue" are one value (one fingerprint) whatever language said it.
 * Chinese forms are matched after Simplified → Traditional conversion; characters that table does
 * not convert are listed in both scripts.
 */
export type ValueKind = 'colour' | 'palette' | 'style' | 'ratio';

interface Entry {
  kind: ValueKind;
  value: string;
  en: readonly string[];
  zh: readonly string[];
}

const ENTRIES: readonly Entry[] = [
  {
    kind: 'colour',
    value: 'off-white',
    en: ['off-white', 'off white', 'cream', 'ivory'],
    zh: ['米白色', '米白', '象牙白'],
  },
  { kind: 'colour', value: 'navy', en: ['navy blue', 'navy'], zh: ['海軍藍', '藏青色'] },
  { kind: 'colour', value: 'blue', en: ['blue'], zh: ['藍色', '藍'] },
  { kind: 'colour', value: 'green', en: ['green'], zh: ['綠色', '綠'] },
  { kind: 'colour', value: 'red', en: ['red'], zh: ['紅色', '紅'] },
  { kind: 'colour', value: 'yellow', en: ['yellow'], zh: ['黃色'] },
  { kind: 'colour', value: 'orange', en: ['orange'], zh: ['橙色', '橘色'] },
  { kind: 'colour', value: 'purple', en: ['purple', 'violet'], zh: ['紫色'] },
  { kind: 'colour', value: 'pink', en: ['pink'], zh: ['粉紅色', '粉色'] },
  { kind: 'colour', value: 'black', en: ['black'], zh: ['黑色'] },
  { kind: 'colour', value: 'white', en: ['white'], zh: ['白色'] },
  { kind: 'colour', value: 'grey', en: ['grey', 'gray'], zh: ['灰色'] },
  { kind: 'colour', value: 'gold', en: ['gold', 'golden'], zh: ['金色'] },
  { kind: 'colour', value: 'teal', en: ['teal'], zh: ['青色'] },
  { kind: 'colour', value: 'beige', en: ['beige'], zh: ['米色'] },
  { kind: 'colour', value: 'brown', en: ['brown'], zh: ['棕色', '咖啡色'] },
  {
    kind: 'palette',
    value: 'muted',
    en: ['muted', 'desaturated', 'low-saturation', 'low saturation', 'understated'],
    zh: ['低飽和度', '低饱和度', '低飽和', '低饱和', '柔和', '淡雅'],
  },
  {
    kind: 'palette',
    value: 'saturated',
    en: ['saturated', 'high-saturation', 'high saturation', 'vivid', 'vibrant'],
    zh: ['高飽和度', '高饱和度', '高飽和', '高饱和', '鮮豔', '鲜艳', '鮮艷'],
  },
  { kind: 'palette', value: 'pastel', en: ['pastel'], zh: ['馬卡龍色', '马卡龙色', '粉彩'] },
  { kind: 'palette', value: 'warm', en: ['warm'], zh: ['暖色系', '暖色調', '暖色'] },
  { kind: 'palette', value: 'cool', en: ['cool-toned', 'cool'], zh: ['冷色系', '冷色調', '冷色'] },
  { kind: 'palette', value: 'monochrome', en: ['monochrome', 'black and white'], zh: ['黑白'] },
  {
    kind: 'style',
    value: 'cyberpunk',
    en: ['cyberpunk', 'cyber-punk'],
    zh: ['賽博朋克', '赛博朋克', '賽博龐克', '赛博庞克'],
  },
  { kind: 'style', value: 'watercolour', en: ['watercolour', 'watercolor'], zh: ['水彩'] },
  { kind: 'style', value: 'minimalist', en: ['minimalist', 'minimalism', 'minimal'], zh: ['極簡', '极简'] },
  { kind: 'style', value: 'retro', en: ['retro', 'vintage'], zh: ['復古', '复古'] },
  { kind: 'style', value: 'anime', en: ['anime', 'manga'], zh: ['動漫', '动漫', '二次元'] },
  { kind: 'style', value: 'pixel art', en: ['pixel art', 'pixel-art'], zh: ['像素風', '像素风', '像素'] },
  { kind: 'style', value: 'oil painting', en: ['oil painting', 'oil-painting'], zh: ['油畫', '油画'] },
  { kind: 'style', value: 'photorealistic', en: ['photorealistic', 'photo-realistic'], zh: ['寫實', '写实'] },
];

export interface FoundValue {
  kind: ValueKind;
  value: string;
  /** As written in the text (for claims in the person's language). */
  surface: string;
  at: number;
  end: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const TERMS = ENTRIES.flatMap((entry) => [
  ...entry.en.map((term) => ({ entry, term, pattern: new RegExp(`(?<![a-z-])${escape(term)}(?![a-z-])`, 'giu') })),
  ...entry.zh.map((term) => ({ entry, term, pattern: new RegExp(escape(toTraditional(term)), 'gu') })),
]);

const RATIO = /(?<!\d)(\d{1,2})\s*[:：x×]\s*(\d{1,2})(?!\d)/gu;

/**
 * Every known value in the text, left to right, longest first where they overlap ("off-white"
 * is not also "white", 米白色 not also 白色).
 */
export function findValues(text: string): FoundValue[] {
  // Traditional conversion keeps one character per character, so indices stay the original's.
  const folded = toTraditional(text.toLowerCase());
  const hits: FoundValue[] = [];
  for (const { entry, pattern } of TERMS) {
    for (const m of folded.matchAll(pattern)) {
      hits.push({
        kind: entry.kind,
        value: entry.value,
        surface: text.slice(m.index, m.index + m[0].length),
        at: m.index,
        end: m.index + m[0].length,
      });
    }
  }
  for (const m of folded.matchAll(RATIO)) {
    hits.push({ kind: 'ratio', value: `${m[1]}:${m[2]}`, surface: m[0], at: m.index, end: m.index + m[0].length });
  }
  hits.sort((a, b) => a.at - b.at || b.end - b.at - (a.end - a.at));
  const kept: FoundValue[] = [];
  for (const hit of hits) if (!kept.some((k) => hit.at < k.end && k.at < hit.end)) kept.push(hit);
  return kept;
}
