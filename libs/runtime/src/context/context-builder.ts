import type { ChangeNotice, ExistingTask, InboxItem, LoadableDomain, ToolDomainName } from '@lomo/domain';
import type { ChatMessage, ToolSpec } from '@lomo/llm';
import { describeNotices, describeTask, type Withheld } from './describe-task';
import { turnMarker, type HistoryStep, type ShownSegment } from './history';
import type { RecalledMemory } from './memory-recall.port';
import type { ProfileView } from './profile-snapshot.port';
import { SYSTEM_RULES } from './system-rules';

export { describeNotices } from './describe-task';

export type ContextLayerName = 'prefix' | 'history' | 'recent' | 'tail' | 'input';

/** A layer's messages are `messages[start, end)`; the prefix also holds the tool definitions. */
export interface PromptLayer {
  layer: ContextLayerName;
  start: number;
  end: number;
  tokens: number;
}

/** Exactly what the model is sent for one step, with its layer boundaries; also what gets archived. */
export interface Prompt {
  messages: ChatMessage[];
  tools: readonly ToolSpec[];
  /** The masked strategy: every definition is sent, only these may be called. */
  allowedTools?: readonly string[];
  layers: PromptLayer[];
}

export interface ContextInput {
  task: ExistingTask;
  /** The turn's wake reason (its start marker) when it has no committed step yet. */
  turnReason: string;
  turnHasSteps: boolean;
  /** Items this step claimed, in claim order. */
  claimed: readonly InboxItem[];
  /** Change notices this step consumed with its claim. */
  notices?: readonly ChangeNotice[];
  /** The definitions sent: the visible ones (dynamic) or all of them in a stable order (masked). */
  tools: readonly ToolSpec[];
  allowedTools?: readonly string[];
  domains: readonly ToolDomainName[];
  loadable: readonly LoadableDomain[];
  profile: ProfileView | null;
  /** The person's memories recalled for this step (tail), best first; empty when none or skipped. */
  memories?: readonly RecalledMemory[];
  /** Shown segments, oldest first. */
  segments: readonly ShownSegment[];
  /** Every step after what the segments cover, earlier turns' and this turn's, in order. */
  recent: readonly HistoryStep[];
  countTokens(text: string): number;
  /** Parts a drill's mutation switch leaves out (describe-task.ts); absent: everything is shown. */
  withheld?: Withheld;
}

/**
 * Builds a step's prompt in the article's fixed order (§6.1): the stable prefix (system rules,
 * the person's profile snapshot by version, the tool definitions) → the history segments
 * (summaries, append-only) → recent steps in full → the dynamic tail (goal, brief, checklist,
 * budget and autonomy, constraints, waiting state, change notices, the person's language) → this
 * step's input. The prefix depends on nothing that moves during a task, so it stays byte-identical
 * (and cacheable) until the profile or the tool set changes; history only grows between
 * compressions, so each step's prompt extends the one before up to the tail.
 */
export class ContextBuilder {
  build(input: ContextInput): Prompt {
    const messages: ChatMessage[] = [];
    const layers: PromptLayer[] = [];
    /** `known`: the layer's tokens counted already (recent steps carry their own count). */
    const layer = (name: ContextLayerName, add: () => void, extraTokens = 0, known?: () => number) => {
      const start = messages.length;
      add();
      const tokens =
        known !== undefined
          ? known()
          : messages.slice(start).reduce((sum, m) => sum + tokensOf(m, input.countTokens), extraTokens);
      layers.push({ layer: name, start, end: messages.length, tokens });
    };
    layer('prefix', () => messages.push({ role: 'system', content: prefixText(input.profile) }), toolTokens(input));
    layer('history', () => {
      if (input.segments.length > 0) messages.push({ role: 'system', content: describeSegments(input.segments) });
    });
    layer(
      'recent',
      () => {
        for (const step of input.recent) {
          if (step.turnReason !== null) messages.push(turnMarker(step.turnReason));
          messages.push(...step.messages);
        }
        // A turn that has no step yet starts here.
        if (!input.turnHasSteps) messages.push(turnMarker(input.turnReason));
      },
      0,
      () => {
        const markers = input.recent.filter((s) => s.turnReason !== null).length + (input.turnHasSteps ? 0 : 1);
        return input.recent.reduce((sum, s) => sum + s.tokens, 0) + markers * MARKER_TOKENS;
      },
    );
    layer('tail', () => {
      messages.push({
        role: 'system',
        content: describeTask(input.task, {
          domains: input.domains,
          loadable: input.loadable,
          ...(input.withheld !== undefined ? { withheld: input.withheld } : {}),
        }),
      });
      // The notices are consumed with the claim either way; no_change_notice only hides them.
      if (input.notices !== undefined && input.notices.length > 0 && input.withheld?.changeNotices !== true)
        messages.push({ role: 'system', content: describeNotices(input.notices) });
      if (input.memories !== undefined && input.memories.length > 0)
        messages.push({ role: 'system', content: describeMemories(input.memories) });
    });
    layer('input', () => {
      for (const item of input.claimed) messages.push({ role: 'user', content: item.text });
    });
    return {
      messages,
      tools: input.tools,
      ...(input.allowedTools !== undefined ? { allowedTools: input.allowedTools } : {}),
      layers,
    };
  }
}

/** The first message: the rules, and the person's profile by version (the memory issue fills it). */
export function prefixText(profile: ProfileView | null): string {
  if (profile === null) return SYSTEM_RULES;
  return `${SYSTEM_RULES}\n\nAbout the person (profile version ${profile.version}):\n${profile.text}`;
}

/** The history layer's one message: every shown segment under its range. */
export function describeSegments(segments: readonly ShownSegment[]): string {
  const parts = segments.map(
    (s) =>
      `[steps ${s.covers.from.turnId.slice(0, 8)}#${s.covers.from.step} to ${s.covers.to.turnId.slice(0, 8)}#${s.covers.to.step}, ${s.covers.steps} steps]\n${s.text}`,
  );
  return `Earlier in this task (summaries of older steps, oldest first; the events keep the full record):\n\n${parts.join('\n\n')}`;
}

/**
 * Recalled memories in the tail (article §7.1): the person's own words are marked apart from the
 * system's guesses, and the task's brief and latest messages win over anything remembered.
 */
export function describeMemories(memories: readonly RecalledMemory[]): string {
  const lines = memories.map((m) => {
    const marks = [m.origin === 'inferred' ? 'inferred, not said by the person' : 'said by the person'];
    if (m.scope === 'task') marks.push('for this task');
    marks.push(`since ${m.validFrom.slice(0, 10)}`);
    return `- ${m.text} (${marks.join('; ')})`;
  });
  return `Remembered about the person (recalled for this step; the brief and the latest messages win over these):\n${lines.join('\n')}`;
}

/** A turn marker is a few words: its count is fixed rather than counted every step. */
const MARKER_TOKENS = 10;

function tokensOf(message: ChatMessage, count: (text: string) => number): number {
  const calls = message.role === 'assistant' && message.toolCalls ? JSON.stringify(message.toolCalls) : '';
  return count(message.content) + (calls === '' ? 0 : count(calls)) + 4;
}

function toolTokens(input: ContextInput): number {
  return input.tools.length === 0 ? 0 : input.countTokens(JSON.stringify(input.tools));
}
