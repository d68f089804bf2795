// The offline model's detector is the one the rest of the system already speaks with; libs/llm
// does not export it yet, hence the path into the library.
import { detectLanguage } from '../../../../libs/llm/src/offline/language';

/** The language given by the client, else detected from the text, else English. */
export function messageLanguage(text: string, given: string | undefined): string {
  return given ?? detectLanguage(text) ?? 'en';
}
