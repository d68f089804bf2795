/**
 * Rule 3 (README.md beside this file, "Recalled memory"): every generation prompt the policy
 * writes carries the preferences its prompt shows (the recalled-memory layer, the profile
 * snapshot). It has no memory of its own: a preference the context drops is missing from the
 * next image, and forgotten content that a regression leaks back into the context is used, which
 * the drills' forgotten_reappearing metric reads from the generation prompts.
 */
import type { ModelToolCall } from '../model-provider.port';
import { isRecord, parseJson } from '../offline/json-values';
import { mediaKindOfTool } from '../offline/media-intent';

/** Where the carried preferences start in a prompt; the duplicate rule compares what precedes it. */
export const PREFERENCES_MARK = ' — keep to: ';

/** At most this many preferences in one prompt, the best recalled first (the runtime's order). */
const MAX_PREFERENCES = 6;

export function withPreferences(prompt: string, preferences: readonly string[]): string {
  if (preferences.length === 0 || prompt.includes(PREFERENCES_MARK)) return prompt;
  return `${prompt}${PREFERENCES_MARK}${preferences.slice(0, MAX_PREFERENCES).join('; ')}`;
}

/** The request part of a prompt this policy wrote (the preferences it carried cut off). */
export const requestPartOf = (prompt: string) => prompt.split(PREFERENCES_MARK)[0];

/** A media generation call's `prompt` argument with the preferences added; other calls unchanged. */
export function carryPreferences(call: ModelToolCall, preferences: readonly string[]): ModelToolCall {
  if (preferences.length === 0 || mediaKindOfTool(call.name) === undefined) return call;
  const args = parseJson(call.arguments);
  if (!isRecord(args) || typeof args.prompt !== 'string') return call;
  return { ...call, arguments: JSON.stringify({ ...args, prompt: withPreferences(args.prompt, preferences) }) };
}
