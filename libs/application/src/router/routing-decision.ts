import { deterministicUuid, type EventDataMap } from '@lomo/contracts';
import type { TaskState } from '@lomo/domain';

export type UserMessage = EventDataMap['UserMessageReceived'];
export type RoutingDecision = EventDataMap['RoutingDecided'];

/** A new task's id derives from the message, so a redelivered message finds the same task. */
export const taskIdFor = (messageId: string) => deterministicUuid('lomo.task', messageId);

/**
 * The pass-through router (issue 4 item 8) until the semantic one exists. A message naming a
 * task goes to that task when it can still take messages (it exists and is not stopped,
 * completed or archived); otherwise the outcome is `clarify`, with the reason, and nothing is
 * delivered: a stopped task is never restarted by a message, and guessing another task would
 * be worse than asking. Any other message, including one that only names an artefact (no
 * artefact-to-task binding exists yet), starts a new persistent task.
 */
export function decideRouting(message: UserMessage, target: TaskState | undefined): RoutingDecision {
  const base = { messageId: message.messageId, method: 'deterministic' as const };
  const targetId = message.target?.taskId;
  if (targetId === undefined) {
    return { ...base, outcome: 'new', taskId: taskIdFor(message.messageId), candidates: [] };
  }
  const explicit = [{ taskId: targetId, score: 1, source: 'explicit' as const }];
  if (target === undefined || target.status === 'none') {
    return { ...base, outcome: 'clarify', taskId: null, candidates: explicit, reason: 'target task not found' };
  }
  if (target.status === 'stopped' || target.status === 'completed' || target.status === 'archived') {
    return {
      ...base,
      outcome: 'clarify',
      taskId: null,
      candidates: explicit,
      reason: `target task is ${target.status}`,
    };
  }
  return { ...base, outcome: 'existing', taskId: targetId, candidates: explicit };
}

/** A task's goal is at most 2000 UTF-16 units (the contract's measure); a surrogate pair is never split. */
export function goalFrom(text: string, max = 2000): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const cut = trimmed.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
