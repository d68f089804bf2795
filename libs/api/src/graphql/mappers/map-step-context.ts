import type { StepContext as StepContextDocument } from '@lomo/read-models';
import type { Prompt } from '@lomo/runtime';
import { ContentUnavailable, PromptLayerName } from '../types/enums';
import type { PromptLayer, PromptMessage, StepContext, StepPrompt } from '../types/step-context.types';

type ChatMessage = Prompt['messages'][number];

export function mapStepContext(c: StepContextDocument): StepContext {
  return {
    layers: c.layers.map((l) => ({ ...l })),
    prefix: { ...c.prefix },
    tools: { strategy: c.tools.strategy, domains: [...c.tools.domains], sent: c.tools.sent },
    segmentIds: [...c.segments],
    budgetTokens: c.budgetTokens,
    promptTokens: c.promptTokens,
    memory:
      c.memory === undefined
        ? null
        : { status: c.memory.status, versionIds: [...c.memory.versionIds], error: c.memory.error ?? null },
  };
}

function mapMessage(m: ChatMessage): PromptMessage {
  return {
    role: m.role,
    content: m.content,
    toolCalls: m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => ({ ...c })) : [],
    toolCallId: m.role === 'tool' ? m.toolCallId : null,
  };
}

/** The archived prompt by layer; undefined (a blob it needs was deleted) shows as purged. */
export function mapPrompt(prompt: Prompt | undefined): StepPrompt {
  if (prompt === undefined)
    return { layers: null, tools: null, allowedTools: null, unavailable: ContentUnavailable.PURGED };
  // A prompt archived before layers were kept (lomo.prompt/1) has no boundaries to show.
  const layers: PromptLayer[] =
    prompt.layers.length === 0
      ? [{ layer: PromptLayerName.UNKNOWN, tokens: null, messages: prompt.messages.map(mapMessage) }]
      : prompt.layers.map((l) => ({
          layer: l.layer,
          tokens: l.tokens,
          messages: prompt.messages.slice(l.start, l.end).map(mapMessage),
        }));
  return {
    layers,
    tools: prompt.tools.map((t) => ({ name: t.name, definitionJson: JSON.stringify(t) })),
    allowedTools: prompt.allowedTools === undefined ? null : [...prompt.allowedTools],
    unavailable: null,
  };
}
