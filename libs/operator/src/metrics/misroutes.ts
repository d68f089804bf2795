import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, type CountedMetric, type ScenarioTruth } from './collaboration-log';

interface Received {
  messageId: string;
  text: string;
  clientMessageId?: string;
}
interface Decided {
  messageId: string;
  outcome: string;
  taskId: string | null;
}

/**
 * Messages routed elsewhere than the scenario meant (its ground truth names a task per message).
 * The task of a name is the one its `new` message opened (TaskCreated.originMessageId); a `new`
 * message must open a task (outcome `new` or `lightweight`), a `task` message must reach the
 * task of that name. A clarification counts as a miss (the scenario's messages are unambiguous),
 * and so does a message whose intended task was never opened. Messages without truth are skipped.
 */
export function misroutes(events: readonly EventEnvelope[], truth: ScenarioTruth): CountedMetric {
  const findings: CountedMetric['findings'] = [];
  const targets = truth.intendedTargets;
  if (targets === undefined) return { count: 0, findings };
  const intentOf = new Map<string, { new: string } | { task: string }>();
  const openedBy = new Map<string, string>(); // origin message id → task id
  for (const e of events) {
    if (e.type === 'UserMessageReceived') {
      const m = dataOf<Received>(e);
      const intent = targets.get(m.clientMessageId ?? m.text) ?? targets.get(m.text);
      if (intent !== undefined) intentOf.set(m.messageId, intent);
    } else if (e.type === 'TaskCreated') {
      const { taskId, originMessageId } = dataOf<{ taskId: string; originMessageId: string }>(e);
      openedBy.set(originMessageId, taskId);
    }
  }
  // The task of each name: the one the name's `new` message opened.
  const taskOfName = new Map<string, string>();
  for (const [messageId, intent] of intentOf)
    if ('new' in intent && openedBy.has(messageId)) taskOfName.set(intent.new, openedBy.get(messageId)!);
  for (const e of events) {
    if (e.type !== 'RoutingDecided') continue;
    const decided = dataOf<Decided>(e);
    const intent = intentOf.get(decided.messageId);
    if (intent === undefined) continue;
    if ('new' in intent) {
      if (decided.outcome !== 'new' && decided.outcome !== 'lightweight')
        findings.push(
          finding(
            e,
            decided.taskId,
            `meant to open "${intent.new}", routed ${decided.outcome} ${decided.taskId ?? ''}`,
          ),
        );
    } else {
      const expected = taskOfName.get(intent.task);
      if (expected === undefined || decided.taskId !== expected)
        findings.push(
          finding(
            e,
            decided.taskId,
            `meant for "${intent.task}" (${expected ?? 'never opened'}), routed ${decided.outcome} ${decided.taskId ?? ''}`,
          ),
        );
    }
  }
  return { count: findings.length, findings };
}
