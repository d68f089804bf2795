import type { DuplicatePrompt, RoutingPrompt } from '@lomo/contracts';
import type { ChatMessage } from '@lomo/llm';
import type { DuplicateCandidate, RoutingCandidate } from '../candidates/candidate';
import { DUPLICATE_INSTRUCTIONS, ROUTING_INSTRUCTIONS } from './routing-instructions';

/** Longest goal and summary put in a prompt, in characters: with N + K candidates this bounds its size. */
export const MAX_GOAL_CHARS = 160;
export const MAX_SUMMARY_CHARS = 280;
/** The message itself is bounded too, so one long paste cannot crowd out the candidates. */
export const MAX_MESSAGE_CHARS = 2000;

export interface BuiltPrompt<P> {
  messages: ChatMessage[];
  prompt: P;
  /** Short ref (t1..tn) to task id, valid for this prompt only. */
  refs: Map<string, string>;
}

export interface RoutingPromptInput {
  message: RoutingPrompt['message'];
  candidates: readonly RoutingCandidate[];
  pendingClarification?: {
    question: string;
    /** Options name tasks by id here; they become refs (a task not among the candidates is added as one). */
    options: readonly { taskId: string | null; label: string }[];
  };
}

/** Cuts at a code point boundary and marks the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export function buildRoutingPrompt(input: RoutingPromptInput): BuiltPrompt<RoutingPrompt> {
  const refs = new Map<string, string>();
  const refOf = new Map<string, string>();
  const candidates = input.candidates.map((c, i) => {
    const ref = `t${i + 1}`;
    refs.set(ref, c.taskId);
    refOf.set(c.taskId, ref);
    return {
      ref,
      goal: truncate(c.document.goal, MAX_GOAL_CHARS),
      summary: c.document.summary === null ? null : truncate(c.document.summary, MAX_SUMMARY_CHARS),
      kind: c.document.kind,
      status: c.document.status,
      lastActiveAt: c.document.lastActiveAt,
      source: c.source,
    };
  });
  const pending = input.pendingClarification;
  const prompt: RoutingPrompt = {
    message: { ...input.message, text: truncate(input.message.text, MAX_MESSAGE_CHARS) },
    candidates,
    pendingClarification: pending
      ? {
          question: truncate(pending.question, MAX_SUMMARY_CHARS),
          options: pending.options.map((o) => ({
            ref: o.taskId === null ? null : (refOf.get(o.taskId) ?? null),
            label: truncate(o.label, MAX_GOAL_CHARS),
          })),
        }
      : null,
  };
  return {
    messages: [
      { role: 'system', content: ROUTING_INSTRUCTIONS },
      { role: 'user', content: JSON.stringify(prompt) },
    ],
    prompt,
    refs,
  };
}

export function buildDuplicatePrompt(input: {
  goal: string;
  language: string;
  candidates: readonly DuplicateCandidate[];
}): BuiltPrompt<DuplicatePrompt> {
  const refs = new Map<string, string>();
  const prompt: DuplicatePrompt = {
    goal: truncate(input.goal, MAX_GOAL_CHARS),
    language: input.language,
    candidates: input.candidates.map((c, i) => {
      const ref = `t${i + 1}`;
      refs.set(ref, c.taskId);
      return {
        ref,
        goal: truncate(c.document.goal, MAX_GOAL_CHARS),
        summary: c.document.summary === null ? null : truncate(c.document.summary, MAX_SUMMARY_CHARS),
        score: Math.round(c.score * 1000) / 1000,
      };
    }),
  };
  return {
    messages: [
      { role: 'system', content: DUPLICATE_INSTRUCTIONS },
      { role: 'user', content: JSON.stringify(prompt) },
    ],
    prompt,
    refs,
  };
}
