/**
 * Rule 1 (README.md beside this file, "Checklist progress"): while the checklist the prompt shows
 * has a next stage that may run (every earlier one settled: done with no review pending, or
 * approved), the policy works it in this turn instead of ending the turn with a summary. It never
 * waits for a "continue" while there is work it can do; a stage that needs the person's review
 * stops it, because the runtime then shows the item as `{review: needed}` / `open` and no later
 * stage is workable. The work itself (documents, media calls, evidence, revisions) and the
 * asking (needsConfirmation, the declared paid outputs the runtime quotes on its budget card)
 * are the offline plan rules' (libs/llm/src/offline/plan-policy.ts), given the turn from the
 * last checklist change on, as if the runtime had started a turn there. A context that loses
 * the checklist, or shows a stale one, leaves the policy with nothing to work: the turn ends and
 * the drill needs a "continue" (continue_prompts).
 */
import type { ChatMessage, ToolSpec } from '../model-provider.port';
import { detectIntent } from '../offline/intents';
import type { OfflineLanguage } from '../offline/language';
import { currentTurnView } from '../offline/offline-model-provider';
import { parseTaskContext } from '../offline/plan-context';
import { nextWorkable } from '../offline/plan-items';
import { planKindOf } from '../offline/plan-kinds';
import { PLAN_TOOLS, planStep, type PlanDecision } from '../offline/plan-policy';
import { domainReach, LOAD_TOOL, withoutLoads } from '../offline/tool-domains';
import { asksDocumentChange } from './document-edit';
import { callsFrom, turnUserIndex } from './prompt-reading';

export interface ProgressInput {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  language: OfflineLanguage;
  callId: string;
}

const CHECKLIST_CHANGES: readonly string[] = [PLAN_TOOLS.plan, PLAN_TOOLS.update];

/**
 * The next call of the checklist's next workable stage, or undefined to leave the step to the
 * other rules (no checklist, nothing workable, the person asked for something else, or the
 * stage's work is a reply with no call: waiting, being made, a refusal).
 */
export function checklistProgressStep(input: ProgressInput): PlanDecision | undefined {
  const turn = currentTurnView(input.messages);
  const messages = withoutLoads(turn);
  const checklist = parseTaskContext(messages).checklist;
  const next = checklist === undefined ? undefined : nextWorkable(checklist);
  if (next === undefined) return undefined;

  const userIndex = turnUserIndex(messages);
  const calls = callsFrom(messages, userIndex + 1);
  const changes = calls.filter((c) => CHECKLIST_CHANGES.includes(c.name));
  // A person's own request (a media order, a note, a change to a document) comes first; the
  // checklist goes on once this turn has worked on it.
  if (userIndex >= 0 && changes.length === 0) {
    const text = messages[userIndex].content;
    if (detectIntent(text) !== undefined || planKindOf(text) !== undefined || asksDocumentChange(text))
      return undefined;
  }
  const lastChange = changes.at(-1);
  if (lastChange !== undefined && lastChange.outcome?.ok !== true) return undefined;
  // The checklist still shows the stage this turn just marked done: the state did not move, so
  // working it again would repeat it.
  if (lastChange?.name === PLAN_TOOLS.update && lastChange.args.itemId === next.itemId) return undefined;

  const from = lastChange === undefined ? Math.max(userIndex, 0) : lastChange.index;
  const view = [
    ...messages.slice(0, from + 1).filter((m) => m.role === 'system'),
    ...messages.slice(from + 1).filter((m) => !(m.role === 'tool' && m.toolCallId === lastChange?.id)),
  ];
  const decision = planStep({
    messages: view,
    tools: input.tools.filter((t) => t.name !== LOAD_TOOL),
    userIndex: -1,
    userText: '',
    intent: undefined,
    language: input.language,
    callId: input.callId,
    reach: domainReach(turn, input.tools),
  });
  return decision !== undefined && decision.toolCalls.length > 0 ? decision : undefined;
}
