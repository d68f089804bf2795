import type { BlobRef } from '@lomo/blobs';
import { canonicalJson } from '@lomo/contracts';
import type { PromptArchive } from '@lomo/runtime';
import type { ForgottenContent } from './forgotten-content';
import { purged, PURGE_REASONS } from './forgotten-content';
import type { InspectedPrompt } from './inspection.types';

const hidden = (ref: unknown, tools: string[], reason: string): InspectedPrompt => ({
  ref,
  canonicalJson: purged(reason),
  layers: purged(reason),
  tools,
});

/**
 * A step's archived prompt exactly as sent, by layer. `purgeReason` is set when the prompt may
 * hold forgotten content (the step was excluded, or built while such content was in context);
 * a prompt that quotes a forgotten text verbatim is purged too, whatever its position.
 */
export async function inspectPrompt(
  archive: PromptArchive,
  ref: BlobRef,
  forgotten: ForgottenContent,
  purgeReason: string | null,
): Promise<InspectedPrompt> {
  const prompt = await archive.load(ref);
  if (prompt === undefined) return hidden(ref, [], PURGE_REASONS.blobDeleted);
  const tools = prompt.tools.map((t) => t.name);
  if (purgeReason !== null) return hidden(ref, tools, purgeReason);
  const json = canonicalJson({ messages: prompt.messages, tools: prompt.tools });
  if (forgotten.quotesForgotten(json)) return hidden(ref, tools, PURGE_REASONS.builtWhileForgotten);
  return {
    ref,
    canonicalJson: json,
    layers: prompt.layers.map((l) => ({
      layer: l.layer,
      tokens: l.tokens,
      messages: prompt.messages.slice(l.start, l.end),
    })),
    tools,
  };
}
