import type { Actor } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { ScenarioWriter } from './scenario-writer';

/** Ids of the scripted scenario; uuids readable by the letter they start with. */
export const ids = {
  taskA: 'aaaaaaaa-0000-4000-8000-000000000001',
  taskB: 'bbbbbbbb-0000-4000-8000-000000000002',
  taskC: 'cccccccc-0000-4000-8000-000000000003',
  taskD: 'dddddddd-0000-4000-8000-000000000004',
  turn1: 'aaaaaaaa-1111-4000-8000-000000000011',
  turn2: 'aaaaaaaa-2222-4000-8000-000000000022',
  turn3: 'bbbbbbbb-3333-4000-8000-000000000033',
  m1: '11111111-0000-4000-8000-000000000001',
  m2: '22222222-0000-4000-8000-000000000002',
  m3: '33333333-0000-4000-8000-000000000003',
  m4: '44444444-0000-4000-8000-000000000004',
  m5: '55555555-0000-4000-8000-000000000005',
  m6: '66666666-0000-4000-8000-000000000006',
  m6Card: '66666666-0000-4000-8000-0000000000c6',
  m7: '77777777-0000-4000-8000-000000000007',
  m8: '88888888-0000-4000-8000-000000000008',
  cardA: 'caaaaaaa-0000-4000-8000-00000000000a',
  reply7: 'e7777777-0000-4000-8000-000000000007',
} as const;

export const call = (turnId: string, step: number, index: number) => `${turnId}:${step}:${index}`;

const person: Actor = { kind: 'user', userId: 'u1' };
const runtime: Actor = { kind: 'system', component: 'runtime' };
const promptRef = { hash: 'a'.repeat(64), bytes: 120, contentType: 'application/json' };
const usage = { inputTokens: 100, outputTokens: 20 };
/** The clock the scenario's store runs on: T0 + 1 s per append. */
export const T0 = Date.parse('2025-03-01T09:00:00.000Z');
export const scenarioClock = () => {
  let appends = 0;
  return () => new Date(T0 + 1_000 * appends++);
};
const leaseNow = '2025-03-01T09:00:00.000Z';
const afterLease = '2025-03-01T10:00:00.000Z';

async function message(w: ScenarioWriter, messageId: string, text: string) {
  await w.main('UserMessageReceived', { messageId, userId: 'u1', text, language: 'en', channel: 'ui' });
}

/**
 * Several tasks, messages, turns with steps and tool calls (a result, an error, an unknown
 * outcome, a takeover), a withdrawal, a release and a stop, across two workspaces. 80-odd events
 * in main-, task- and turn- streams, written through the real deciders. Returns the writer of
 * workspace ws1, which knows the tasks' states (writeCorrectionsScenario continues with it).
 */
export async function writeMultiTaskScenario(store: EventStore): Promise<ScenarioWriter> {
  const w = new ScenarioWriter(store, 'ws1', 'u1');
  const { taskA, taskB, taskC, turn1, turn2, turn3 } = ids;

  // Task A: a persistent task with two turns; the second is cancelled by a stop.
  await message(w, ids.m1, 'Design a poster for the spring fair');
  await w.main('RoutingDecided', {
    messageId: ids.m1,
    outcome: 'new',
    taskId: taskA,
    method: 'semantic',
    candidates: [],
  });
  await w.task(taskA, {
    type: 'CreateTask',
    taskId: taskA,
    kind: 'persistent',
    goal: 'Spring fair poster',
    language: 'en',
    originMessageId: ids.m1,
  });
  await w.task(taskA, {
    type: 'DeliverMessage',
    itemId: ids.m1,
    text: 'Design a poster for the spring fair',
    language: 'en',
  });
  await w.task(taskA, { type: 'OpenTurn', turnId: turn1, reason: 'message' });
  await w.turn(turn1, { type: 'StartTurn', turnId: turn1, taskId: taskA, reason: 'message' });
  await w.turn(turn1, { type: 'TakeLease', workerId: 'worker-a', now: leaseNow, leaseMs: 30_000 });
  await w.task(taskA, { type: 'ClaimInboxItems', turnId: turn1, step: 1 });
  await w.turn(turn1, {
    type: 'CommitStep',
    generation: 1,
    step: 1,
    reply: 'Drafting the layout and exporting a proof.',
    toolCallIntents: [
      { callId: call(turn1, 1, 0), tool: 'notes.write', arguments: { title: 'layout' } },
      { callId: call(turn1, 1, 1), tool: 'export.pdf', arguments: { pages: 1 } },
    ],
    consumedItemIds: [ids.m1],
    usage,
    promptRef,
    finishReason: 'tool_calls',
  });
  await w.main('TaskCardShown', {
    cardId: ids.cardA,
    taskId: taskA,
    messageId: ids.m1,
    title: 'Spring fair poster',
    status: 'active',
  });
  await w.turn(turn1, { type: 'StartToolCall', generation: 1, callId: call(turn1, 1, 0), attempt: 1 });
  await w.turn(turn1, { type: 'CompleteToolCall', callId: call(turn1, 1, 0), status: 'ok', result: { noteId: 'n1' } });
  await w.turn(turn1, { type: 'StartToolCall', generation: 1, callId: call(turn1, 1, 1), attempt: 1 });
  await w.turn(turn1, {
    type: 'RecordToolOutcomeUnknown',
    generation: 1,
    callId: call(turn1, 1, 1),
    reason: 'started_without_result_not_idempotent',
  });
  await w.turn(turn1, {
    type: 'CommitStep',
    generation: 1,
    step: 2,
    reply: 'The export may not have run; here is the layout.',
    toolCallIntents: [],
    consumedItemIds: [],
    usage,
    promptRef,
    finishReason: 'stop',
  });
  await w.turn(turn1, { type: 'CompleteTurn', generation: 1, steps: 2, summary: 'layout drafted' });
  await w.task(taskA, { type: 'CloseTurn', turnId: turn1, outcome: 'completed' });

  // Task B: a lightweight task whose turn is taken over, with a failing call; then completed.
  await message(w, ids.m4, 'Summarize my notes');
  await w.main('RoutingDecided', {
    messageId: ids.m4,
    outcome: 'lightweight',
    taskId: taskB,
    method: 'deterministic',
    candidates: [],
  });
  await w.task(taskB, {
    type: 'CreateTask',
    taskId: taskB,
    kind: 'lightweight',
    goal: 'Summarize notes',
    language: 'en',
    originMessageId: ids.m4,
  });
  await w.task(taskB, { type: 'DeliverMessage', itemId: ids.m4, text: 'Summarize my notes', language: 'en' });
  await w.task(taskB, { type: 'OpenTurn', turnId: turn3, reason: 'message' });
  await w.turn(turn3, { type: 'StartTurn', turnId: turn3, taskId: taskB, reason: 'message' });
  await w.turn(turn3, { type: 'TakeLease', workerId: 'worker-b', now: leaseNow, leaseMs: 30_000 });
  await w.task(taskB, { type: 'ClaimInboxItems', turnId: turn3, step: 1 });
  await w.turn(turn3, { type: 'TakeLease', workerId: 'worker-c', now: afterLease, leaseMs: 30_000 });
  await w.turn(turn3, {
    type: 'CommitStep',
    generation: 2,
    step: 1,
    reply: 'Reading your notes.',
    toolCallIntents: [{ callId: call(turn3, 1, 0), tool: 'notes.read', arguments: {} }],
    consumedItemIds: [ids.m4],
    usage,
    promptRef,
    finishReason: 'tool_calls',
  });
  await w.turn(turn3, { type: 'StartToolCall', generation: 2, callId: call(turn3, 1, 0), attempt: 1 });
  await w.turn(turn3, {
    type: 'CompleteToolCall',
    callId: call(turn3, 1, 0),
    status: 'error',
    error: { code: 'NOTES_EMPTY', message: 'No notes yet', retriable: false },
  });
  await w.turn(turn3, { type: 'CompleteTurn', generation: 2, steps: 1 });
  await w.task(taskB, { type: 'CloseTurn', turnId: turn3, outcome: 'completed' });
  await w.task(taskB, { type: 'CompleteTask', summary: 'Nothing to summarize' });

  // Task A again: two more messages, one withdrawn; a second turn claims, then the task is stopped.
  await message(w, ids.m2, 'Make it blue');
  await w.main('RoutingDecided', {
    messageId: ids.m2,
    outcome: 'existing',
    taskId: taskA,
    method: 'semantic',
    candidates: [],
  });
  await w.task(taskA, { type: 'DeliverMessage', itemId: ids.m2, text: 'Make it blue', language: 'en' });
  await message(w, ids.m3, 'And add a dragon');
  await w.main('RoutingDecided', {
    messageId: ids.m3,
    outcome: 'existing',
    taskId: taskA,
    method: 'semantic',
    candidates: [],
  });
  await w.task(taskA, { type: 'DeliverMessage', itemId: ids.m3, text: 'And add a dragon', language: 'en' });
  await w.task(taskA, { type: 'WithdrawInboxItem', itemId: ids.m3, by: 'u1' });
  await w.task(taskA, { type: 'OpenTurn', turnId: turn2, reason: 'message' });
  await w.turn(turn2, { type: 'StartTurn', turnId: turn2, taskId: taskA, reason: 'message' });
  await w.turn(turn2, { type: 'TakeLease', workerId: 'worker-a', now: leaseNow, leaseMs: 30_000 });
  await w.task(taskA, { type: 'ClaimInboxItems', turnId: turn2, step: 1 });
  await w.turn(turn2, { type: 'CancelTurn', by: person, reason: 'task_stopped' });
  await w.task(taskA, { type: 'ReleaseClaims', turnId: turn2, step: 1, reason: 'turn_cancelled' });
  await w.task(taskA, { type: 'StopTask', by: person, reason: 'changed my mind', cancelledTurnId: turn2 });

  // Task C: paused. Main-line answers: a clarification and a direct reply.
  await message(w, ids.m5, 'Plan a trip to Lisbon');
  await w.main('RoutingDecided', {
    messageId: ids.m5,
    outcome: 'new',
    taskId: taskC,
    method: 'semantic',
    candidates: [],
  });
  await w.task(taskC, {
    type: 'CreateTask',
    taskId: taskC,
    kind: 'persistent',
    goal: 'Lisbon trip',
    language: 'en',
    originMessageId: ids.m5,
  });
  await w.task(taskC, { type: 'DeliverMessage', itemId: ids.m5, text: 'Plan a trip to Lisbon', language: 'en' });
  await w.task(taskC, { type: 'PauseTask', by: runtime, reason: 'waiting for dates' });
  await message(w, ids.m6, 'Do the other one');
  await w.main('RoutingDecided', {
    messageId: ids.m6,
    outcome: 'clarify',
    taskId: null,
    method: 'semantic',
    candidates: [],
  });
  await w.main('ClarificationRequested', {
    messageId: ids.m6,
    cardId: ids.m6Card,
    question: 'Which task do you mean?',
    options: [
      { optionId: 'o1', label: 'Spring fair poster', action: 'route', taskId: taskA },
      { optionId: 'o2', label: 'Lisbon trip', action: 'route', taskId: taskC },
    ],
    reason: 'ambiguous',
    language: 'en',
  });
  await message(w, ids.m7, 'Thanks!');
  await w.main('RoutingDecided', {
    messageId: ids.m7,
    outcome: 'main',
    taskId: null,
    method: 'deterministic',
    candidates: [],
  });
  await w.main('MainReplied', { messageId: ids.m7, replyId: ids.reply7, text: 'You are welcome.', language: 'en' });

  // Another workspace: its documents must stay its own.
  const other = new ScenarioWriter(store, 'ws2', 'u2');
  await other.main('UserMessageReceived', {
    messageId: ids.m8,
    userId: 'u2',
    text: 'Write a haiku',
    language: 'en',
    channel: 'api',
  });
  await other.main('RoutingDecided', {
    messageId: ids.m8,
    outcome: 'new',
    taskId: ids.taskD,
    method: 'semantic',
    candidates: [],
  });
  await other.task(ids.taskD, {
    type: 'CreateTask',
    taskId: ids.taskD,
    kind: 'lightweight',
    goal: 'Haiku',
    language: 'en',
    originMessageId: ids.m8,
  });
  await other.task(ids.taskD, { type: 'DeliverMessage', itemId: ids.m8, text: 'Write a haiku', language: 'en' });
  return w;
}
