/**
 * Rule 5 (README.md beside this file, "No duplicates"): before ordering a generation for the
 * person's media request, the policy looks at its prompt for a delivered artefact of the same
 * request (an earlier generation call of the same kind, same prompt, whose result names an
 * artefact). Shown → it names that artefact and orders nothing. Not shown → it orders again: a
 * context that loses the earlier delivery makes a duplicate (duplicate_generations,
 * duplicate_artifacts), which is the regression the rule is there to expose.
 */
import type { ChatMessage } from '../model-provider.port';
import { detectIntent } from '../offline/intents';
import { mediaKindOfTool, mediaPromptOf, mediaRequestOf, type OfflineMediaKind } from '../offline/media-intent';
import { artifactOfResult, callsFrom, turnUserIndex } from './prompt-reading';
import { requestPartOf } from './recalled-preferences';

export interface Delivered {
  artifactId: string;
  kind: OfflineMediaKind;
}

const normalized = (text: string) =>
  text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The artefact already delivered for this turn's media request, or undefined (no media request,
 * a call for it made already in this turn, or no delivery in the prompt).
 */
export function deliveredForRequest(messages: readonly ChatMessage[]): Delivered | undefined {
  const userIndex = turnUserIndex(messages);
  if (userIndex < 0) return undefined;
  const text = messages[userIndex].content;
  const request = detectIntent(text) === 'media' ? mediaRequestOf(text) : undefined;
  if (request === undefined) return undefined;
  const calls = callsFrom(messages);
  if (calls.some((c) => c.index > userIndex)) return undefined;
  const wanted = normalized(mediaPromptOf(text));
  for (const call of [...calls].reverse()) {
    if (mediaKindOfTool(call.name) !== request.kind || call.outcome?.ok !== true) continue;
    const prompt = typeof call.args.prompt === 'string' ? normalized(requestPartOf(call.args.prompt)) : '';
    const artifact = artifactOfResult(call.outcome.result);
    if (prompt === wanted && artifact !== undefined) return { artifactId: artifact.artifactId, kind: request.kind };
  }
  return undefined;
}
