/**
 * The reactive policy's step: prompt in, decision out. It reads only the request (messages,
 * tools offered, tool choice); the rules (README.md beside this file) are tried in order, and
 * what none of them decides is the offline policy's (libs/llm/src/offline), given the reply
 * language this policy chose. Then every generation prompt it orders carries the preferences
 * the prompt shows (rule 3).
 */
import type { CompletionRequest, ModelToolCall } from '../model-provider.port';
import { currentTurnView } from '../offline/offline-model-provider';
import { PHRASES } from '../offline/phrases';
import { LOAD_TOOL } from '../offline/tool-domains';
import { checklistProgressStep } from './checklist-progress';
import { deliveredForRequest } from './delivered-reuse';
import { documentEditStep } from './document-edit';
import { preferencesIn } from './prompt-reading';
import { carryPreferences } from './recalled-preferences';
import { personLanguage, withDeclaredLanguage } from './reply-language';

export type ReactiveDecision =
  /** This policy decided: the reply text and calls. */
  | { kind: 'decided'; text: string; toolCalls: ModelToolCall[] }
  /** No reactive rule applies: the offline policy answers this request (with the language declared). */
  | { kind: 'offline'; request: CompletionRequest };

/** A step of a task: the runtime offers tools and wants free text or calls, not a structured answer. */
export const isTaskStep = (request: CompletionRequest) =>
  request.responseFormat === undefined && request.tools.length > 0;

/**
 * A free-text call with no tools: the runtime's history summary (summarizer.ts). The policy
 * answers it with nothing, and the runtime falls back to its extractive summary.
 */
export const isSummaryRequest = (request: CompletionRequest) =>
  request.responseFormat === undefined && request.tools.length === 0;

/** The tools the step may call (the masked strategy's allowedTools), like the offline policy sees them. */
function callableTools(request: CompletionRequest) {
  if (request.toolChoice === 'none') return [];
  if (request.allowedTools === undefined) return request.tools;
  const allowed = new Set(request.allowedTools);
  return request.tools.filter((t) => allowed.has(t.name));
}

export function reactiveStep(request: CompletionRequest): ReactiveDecision {
  const language = personLanguage(request.messages);
  const offline: ReactiveDecision = {
    kind: 'offline',
    request: { ...request, messages: withDeclaredLanguage(request.messages, language) },
  };
  // A forced tool, or none allowed: nothing for the rules to choose.
  if (typeof request.toolChoice === 'object') return offline;
  const tools = callableTools(request);
  if (tools.length === 0) return offline;
  // Unique within the turn (each step adds messages), stable for the same request.
  const callId = `reactive_${currentTurnView(request.messages).length}_0`;
  const messages = request.messages;

  const edit = documentEditStep({ messages, tools, callId });
  if (edit.kind === 'call') return { kind: 'decided', text: '', toolCalls: [edit.call] };

  const delivered = deliveredForRequest(messages);
  if (delivered !== undefined)
    return { kind: 'decided', text: PHRASES[language].mediaReady(delivered.kind, delivered.artifactId), toolCalls: [] };

  const progress = checklistProgressStep({ messages, tools, language, callId });
  if (progress !== undefined) return { kind: 'decided', ...progress };
  return offline;
}

/** Rule 3 on whatever was decided (by a reactive rule or the offline one): preferences travel with each generation. */
export function withRecalledPreferences(
  request: CompletionRequest,
  toolCalls: readonly ModelToolCall[],
): ModelToolCall[] {
  const preferences = preferencesIn(request.messages);
  return toolCalls.map((c) => (c.name === LOAD_TOOL ? c : carryPreferences(c, preferences)));
}
