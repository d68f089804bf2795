import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, idOf, type CountedMetric } from './collaboration-log';

interface Opened {
  checkpointId: string;
  kind: string;
  callId?: string;
  itemId?: string;
}
interface Resolved {
  checkpointId: string;
  decision: string;
}

/** What a card asks about: the exact call of an approval, the item of a review, else its kind. */
const subjectOf = (c: Opened) => (c.callId !== undefined ? `call:${c.callId}` : `${c.kind}:${c.itemId ?? '-'}`);

/**
 * A card that asks again what the person already settled: the same call approved before, or
 * the same review item or question approved, answered or chosen before, with no new word from
 * the person on the task since (a message delivered to it, or an adjustment or rejection that
 * reopens the item). The person's time is the cost (article §11.3, "unnecessary confirmations").
 */
export function unnecessaryConfirmations(events: readonly EventEnvelope[]): CountedMetric {
  const findings: CountedMetric['findings'] = [];
  // Per task: subjects settled since the person last spoke to it.
  const settled = new Map<string, Set<string>>();
  const opened = new Map<string, Opened>();
  for (const e of events) {
    const taskId = idOf(e.metadata.streamId, 'task');
    if (taskId === null) continue;
    const subjects = settled.get(taskId) ?? new Set<string>();
    settled.set(taskId, subjects);
    switch (e.type) {
      case 'CheckpointOpened': {
        const card = dataOf<Opened>(e);
        opened.set(card.checkpointId, card);
        // A question without an item asks something new each time: only repeats of a settled subject count.
        if (card.kind === 'question' && card.itemId === undefined && card.callId === undefined) break;
        if (subjects.has(subjectOf(card))) findings.push(finding(e, taskId, `asks again about ${subjectOf(card)}`));
        break;
      }
      case 'CheckpointResolved': {
        const { checkpointId, decision } = dataOf<Resolved>(e);
        const card = opened.get(checkpointId);
        if (card === undefined) break;
        if (decision === 'approve' || decision === 'answer' || decision === 'choose') subjects.add(subjectOf(card));
        else subjects.delete(subjectOf(card));
        break;
      }
      case 'MessageDeliveredToInbox':
        subjects.clear();
        break;
    }
  }
  return { count: findings.length, findings };
}
