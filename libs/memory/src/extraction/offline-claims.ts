/**
 * The offline rules' claims, in the language of the evidence. The Chinese templates use only
 * characters written the same in both scripts, and carry the value as the person wrote it.
 */
const CLAIMS: Record<string, { en: (v: string) => string; zh: (v: string) => string }> = {
  'brand.colour.main': { en: (v) => `The brand's main colour is ${v}.`, zh: (v) => `品牌主色：${v}` },
  'brand.name': { en: (v) => `The brand is called ${v}.`, zh: (v) => `品牌名：${v}` },
  'person.name': { en: (v) => `Their name is ${v}.`, zh: (v) => `名字：${v}` },
  'style.palette': { en: (v) => `Prefers ${v} colours.`, zh: (v) => `偏好${v}的配色` },
  'style.visual': { en: (v) => `Prefers a ${v} style.`, zh: (v) => `偏好${v}` },
  'style.colour': { en: (v) => `Likes ${v}.`, zh: (v) => `偏好${v}` },
  'style.colour.pairing': { en: (v) => `Prefers ${v}.`, zh: (v) => `偏好${v}的搭配` },
  'style.avoid': { en: (v) => `Avoids ${v}.`, zh: (v) => `不要${v}` },
  'output.aspect_ratio': { en: (v) => `Usually uses ${v}.`, zh: (v) => `常用比例 ${v}` },
};

export function claimFor(subject: string, value: string, zh: boolean, task: boolean): string {
  const template = CLAIMS[subject];
  const body = template === undefined ? `${subject}: ${value}` : zh ? template.zh(value) : template.en(value);
  if (!task) return body;
  return zh ? `本次：${body}` : `For this task: ${body.charAt(0).toLowerCase()}${body.slice(1)}`;
}

/** An inference from what was generated: said to be one, in no person's words. */
export const inferredClaim = (value: string): string =>
  `Often generates ${value} images (inferred from repeated generations, not stated).`;
