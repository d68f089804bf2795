/**
 * Rule 4 (README.md beside this file, "Language"): the reply language is the one of the
 * person's latest message the prompt shows in which a language can be told (an "ok" tells none),
 * earlier turns included; only when no message tells one, the tail's `Language of the person:`
 * line. A context that loses the person's messages, or a runtime that answers in the task's
 * stored language after the person switched, shows up as a language switch.
 */
import type { ChatMessage } from '../model-provider.port';
import { declaredLanguage, detectLanguage, type OfflineLanguage } from '../offline/language';

/**
 * The runtime's own words inside a person's message are no sign of the person's language: the
 * stand-in for a forgotten message ("(A message the person asked to forget.)") and the marker
 * of a withdrawn statement ("[changed later; see the constraints in force]"), both English
 * (libs/runtime/src/context/history.ts, constraints.ts).
 */
const personWords = (content: string) =>
  /^\(.*\)$/s.test(content.trim()) ? '' : content.replace(/\[changed later;[^\]]*\]/g, ' ');

export function personLanguage(messages: readonly ChatMessage[]): OfflineLanguage {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    const language = detectLanguage(personWords(m.content));
    if (language !== undefined) return language;
  }
  const systemTexts = messages.filter((m) => m.role === 'system').map((m) => m.content);
  return declaredLanguage(systemTexts) ?? 'en';
}

/**
 * The messages the offline rules are given when the reactive policy falls back to them: a first
 * system message declaring the reply language, which the offline policy reads when the current
 * turn's message tells none (a turn the runtime started, a bare "ok").
 */
export function withDeclaredLanguage(messages: readonly ChatMessage[], language: OfflineLanguage): ChatMessage[] {
  return [{ role: 'system', content: `Language of the person: ${language}` }, ...messages];
}
