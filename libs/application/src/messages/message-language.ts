import { detectLanguage } from '@lomo/llm';

/**
 * The language given by the client, else detected from the text, else English. Chinese is
 * recorded with its script (zh-Hant / zh-Hans) so replies keep it: a bare `zh` from the client
 * is refined by the text's characters.
 */
export function messageLanguage(text: string, given: string | undefined): string {
  const detected = detectLanguage(text);
  if (given?.toLowerCase() === 'zh' && detected?.startsWith('zh-')) return detected;
  return given ?? detected ?? 'en';
}
