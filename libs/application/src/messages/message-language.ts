import { detectLanguage } from '@lomo/llm';

/** The language given by the client, else detected from the text, else English. */
export function messageLanguage(text: string, given: string | undefined): string {
  return given ?? detectLanguage(text) ?? 'en';
}
