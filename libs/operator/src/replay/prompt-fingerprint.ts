import { canonicalDigest, canonicalJson } from '@lomo/contracts';
import type { Prompt } from '@lomo/runtime';
import type { ContextCheck } from './replay.types';

/** What the model is sent (messages, tool definitions, the tools it may call), not the token counts. */
const sent = (prompt: Prompt) => ({
  messages: prompt.messages,
  tools: prompt.tools,
  allowedTools: prompt.allowedTools ?? null,
});

/** The hash of what a prompt sends the model, canonicalised (keys sorted at every depth). */
export const promptHash = (prompt: Prompt): string => canonicalDigest(sent(prompt));

/** The prompt's text as the model receives it, canonicalised: what "never sent" checks look in. */
export const promptText = (prompt: Prompt): string => canonicalJson(sent(prompt));

/**
 * A rebuilt prompt against the one the step archived: the same hash, or the first layer (in
 * prompt order) whose messages differ (the prefix's include the tool definitions).
 */
export function compareContext(rebuilt: Prompt, stored: Prompt | undefined): ContextCheck {
  const rebuiltHash = promptHash(rebuilt);
  if (stored === undefined) return { status: 'stored_prompt_missing', rebuiltHash };
  const storedHash = promptHash(stored);
  if (rebuiltHash === storedHash) return { status: 'reproduced', hash: rebuiltHash };
  return {
    status: 'context_drift',
    rebuiltHash,
    storedHash,
    firstDifferingLayer: firstDifferingLayer(rebuilt, stored),
  };
}

function firstDifferingLayer(rebuilt: Prompt, stored: Prompt): string {
  const names = [...new Set([...rebuilt.layers, ...stored.layers].map((l) => l.layer))];
  const order = ['prefix', 'history', 'recent', 'tail', 'input'];
  names.sort((a, b) => order.indexOf(a) - order.indexOf(b));
  // The prefix layer holds the tool definitions too (context-builder.ts).
  const slice = (prompt: Prompt, name: string) => {
    const layer = prompt.layers.find((l) => l.layer === name);
    const messages = layer === undefined ? [] : prompt.messages.slice(layer.start, layer.end);
    return name === 'prefix' ? { messages, tools: prompt.tools, allowedTools: prompt.allowedTools ?? null } : messages;
  };
  for (const name of names) if (canonicalJson(slice(rebuilt, name)) !== canonicalJson(slice(stored, name))) return name;
  // Same layers' messages, yet another hash: the layer boundaries moved a message across layers.
  return 'messages';
}
