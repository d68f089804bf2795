import type { Actor } from '@lomo/contracts';
import { moveNote } from '@lomo/domain';
import { ids } from './multi-task-scenario';
import type { ScenarioWriter } from './scenario-writer';

/** Ids of the corrections scenario, on top of the multi-task scenario's. */
export const correctionIds = {
  taskE: 'eeeeeeee-0000-4000-8000-00000000000e',
  m9: '99999999-0000-4000-8000-000000000009',
  m10: '10101010-0000-4000-8000-000000000010',
  m11: '11111111-1111-4000-8000-000000000011',
  reply9: 'e9999999-0000-4000-8000-000000000009',
} as const;

const runtime: Actor = { kind: 'system', component: 'runtime' };

/**
 * Runs after writeMultiTaskScenario: the person answers the clarification card, task C gets a
 * routing summary, one of its unread messages is moved to a new task E, then C (with its other
 * unread message) is merged into E; Main answers a question itself.
 */
export async function writeCorrectionsScenario(w: ScenarioWriter): Promise<void> {
  const { taskE, m9, m10, m11 } = correctionIds;
  const { taskC } = ids;

  // The card of m6 answered by a button: a message naming the card, routed, then the card resolved.
  await w.main('UserMessageReceived', {
    messageId: m11,
    userId: 'u1',
    text: 'Lisbon trip',
    language: 'en',
    channel: 'card',
    answersCardId: ids.m6Card,
  });
  await w.main('RoutingDecided', {
    messageId: m11,
    outcome: 'existing',
    taskId: taskC,
    method: 'deterministic',
    candidates: [{ taskId: taskC, score: 1, source: 'explicit' }],
    reason: 'card answer',
    answersCardId: ids.m6Card,
  });
  await w.main('ClarificationAnswered', {
    cardId: ids.m6Card,
    messageId: ids.m6,
    answerMessageId: m11,
    optionId: 'o2',
    by: 'u1',
  });
  await w.task(taskC, { type: 'DeliverMessage', itemId: m11, text: 'Lisbon trip', language: 'en' });
  await w.task(taskC, { type: 'UpdateTaskSummary', summary: 'Waiting for travel dates', by: runtime });

  // Task E; m5 (unread in paused C) is moved there.
  await w.main('UserMessageReceived', {
    messageId: m9,
    userId: 'u1',
    text: 'Book flights',
    language: 'en',
    channel: 'ui',
  });
  await w.main('RoutingDecided', { messageId: m9, outcome: 'new', taskId: taskE, method: 'semantic', candidates: [] });
  await w.task(taskE, {
    type: 'CreateTask',
    taskId: taskE,
    kind: 'lightweight',
    goal: 'Flights',
    language: 'en',
    originMessageId: m9,
  });
  await w.task(taskE, { type: 'DeliverMessage', itemId: m9, text: 'Book flights', language: 'en' });
  await w.task(taskC, { type: 'MoveMessageOut', itemId: ids.m5, toTaskId: taskE, by: 'u1' });
  await w.task(taskE, {
    type: 'DeliverMessage',
    itemId: ids.m5,
    text: 'Plan a trip to Lisbon',
    language: 'en',
    movedFrom: { taskId: taskC, note: moveNote(taskC, 'moved', false), consumedThere: false },
  });
  await w.task(taskE, { type: 'UpgradeTask', reason: 'kept revising', by: { kind: 'user', userId: 'u1' } });

  // C merged into E: its unread m11 moves, C is archived with a pointer.
  await w.task(taskC, { type: 'MergeInto', targetTaskId: taskE, by: 'u1' });
  await w.task(taskE, {
    type: 'AcceptMerge',
    sourceTaskId: taskC,
    items: [{ itemId: m11, text: 'Lisbon trip', language: 'en' }],
    by: 'u1',
  });

  await w.main('UserMessageReceived', { messageId: m10, userId: 'u1', text: 'hello', language: 'en', channel: 'ui' });
  await w.main('RoutingDecided', { messageId: m10, outcome: 'main', taskId: null, method: 'semantic', candidates: [] });
  await w.main('MainReplied', {
    messageId: m10,
    replyId: correctionIds.reply9,
    text: 'Hello! What shall we make?',
    language: 'en',
  });
}
