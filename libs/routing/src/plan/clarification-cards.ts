import type { EventDataMap } from '@lomo/contracts';
import { routerPhrase } from '@lomo/llm';
import type { PlannedRouting } from './routing-step';
import type { RouteCandidate, RoutingDecision, RoutingView } from './routing-view';

export type CardOption = EventDataMap['ClarificationRequested']['options'][number];

const MAX_TASK_OPTIONS = 3;
const LABEL_MAX = 80;

/**
 * The options of a card: up to three candidate tasks, then "start a new one". Labels are what a
 * card button sends back as the message text (plan-routing.ts `chosenOption`), so they are made
 * unique by numbering.
 */
export function optionsFor(view: RoutingView, ranked: readonly RouteCandidate[]): CardOption[] {
  const seen = new Set<string>();
  const tasks: CardOption[] = [];
  for (const candidate of ranked) {
    if (tasks.length >= MAX_TASK_OPTIONS || seen.has(candidate.taskId)) continue;
    seen.add(candidate.taskId);
    tasks.push({
      optionId: `task-${tasks.length + 1}`,
      label: `${tasks.length + 1}. ${shorten(candidate.goal)}`,
      action: 'route',
      taskId: candidate.taskId,
    });
  }
  return [...tasks, { optionId: 'new', label: routerPhrase('startNew', view.message.language), action: 'new' }];
}

function shorten(goal: string): string {
  const line = goal.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= LABEL_MAX ? line : `${chars.slice(0, LABEL_MAX - 1).join('')}…`;
}

export interface CardSpec {
  method: RoutingDecision['method'];
  candidates: RoutingDecision['candidates'];
  reason: string;
  clarifyReason: EventDataMap['ClarificationRequested']['reason'];
  question: string;
  options: CardOption[];
  modelStep?: RoutingDecision['modelStep'];
  duplicateCheck?: RoutingDecision['duplicateCheck'];
}

/** A `clarify` decision with its card; nothing is delivered until the person answers. */
export function clarifyCard(view: RoutingView, spec: CardSpec): PlannedRouting {
  const unique = new Map<string, CardOption>();
  for (const option of spec.options) if (!unique.has(option.optionId)) unique.set(option.optionId, option);
  return {
    decision: {
      outcome: 'clarify',
      taskId: null,
      method: spec.method,
      candidates: spec.candidates,
      reason: spec.reason,
      ...(spec.modelStep === undefined ? {} : { modelStep: spec.modelStep }),
      ...(spec.duplicateCheck === undefined ? {} : { duplicateCheck: spec.duplicateCheck }),
    },
    clarification: {
      question: spec.question.slice(0, 4000),
      options: [...unique.values()].slice(0, 10),
      reason: spec.clarifyReason,
      language: view.message.language,
    },
  };
}
