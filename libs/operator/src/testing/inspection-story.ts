import { randomUUID } from 'node:crypto';
import type { BlobRef } from '@lomo/blobs';
import { streams, type Actor } from '@lomo/contracts';
import { generationJobId } from '@lomo/generation';
import { PromptArchive, type Prompt } from '@lomo/runtime';
import type { InspectionWorld } from './inspection-world';

const person: Actor = { kind: 'user', userId: 'u1' };
const router: Actor = { kind: 'system', component: 'router' };
const runtime: Actor = { kind: 'agent' };
const until = '2030-01-01T00:00:00.000Z';

const TOOLS = [{ name: 'image.generate', description: 'Draws an image', parameters: { type: 'object' } }];

const promptOf = (...conversation: string[]): Prompt => ({
  messages: [
    { role: 'system', content: 'You are Lomo. Follow the rules.' },
    ...conversation.map((content, i) =>
      i % 2 === 0 ? { role: 'user' as const, content } : { role: 'assistant' as const, content },
    ),
  ],
  tools: TOOLS,
  layers: [
    { layer: 'prefix', start: 0, end: 1, tokens: 12 },
    { layer: 'history', start: 1, end: conversation.length, tokens: 20 },
    { layer: 'input', start: conversation.length, end: conversation.length + 1, tokens: 8 },
  ],
});

/** What the story wrote, for the assertions. */
export interface TaskStory {
  taskId: string;
  turns: [string, string, string];
  messages: { origin: string; forgotten: string; later: string };
  callId: string;
  jobId: string;
  checkpointId: string;
  goal: string;
  /** The text a person later forgot: it must never be shown. */
  secret: string;
  prompts: Record<'turn1step1' | 'turn2step1' | 'turn2step2' | 'turn3step1', BlobRef>;
}

/**
 * A task as the router, the runtime, the generation service and a forgetting leave it:
 * turn 1 (a paid image call, a takeover of its lease by a second worker, a question card),
 * turn 2 (a message the person later forgot, consumed by step 1 and in step 2's history), a
 * ContextExcluded, then turn 3 whose prompt no longer holds the forgotten message.
 */
export async function tellTaskStory(world: InspectionWorld): Promise<TaskStory> {
  const taskId = randomUUID();
  const turns: [string, string, string] = [randomUUID(), randomUUID(), randomUUID()];
  const messages = { origin: randomUUID(), forgotten: randomUUID(), later: randomUUID() };
  const goal = 'Draw a red fox for the poster';
  const secret = 'my bank PIN is 4711, keep it';
  const later = 'Now make the fox blue';
  const callId = `${turns[0]}:1:0`;
  const jobId = generationJobId('ws1', callId);
  const checkpointId = randomUUID();
  const archive = new PromptArchive(world.blobs);
  const task = streams.task(taskId);
  const main = streams.main('ws1', 'u1');
  const [turn1, turn2, turn3] = turns.map((t) => streams.turn(t));
  const step = (n: number, reply: string, promptRef: BlobRef, consumed: string[], intents: unknown[] = []) => ({
    step: n,
    reply,
    toolCallIntents: intents,
    consumedItemIds: consumed,
    usage: { inputTokens: 100, outputTokens: 10 },
    promptRef,
    finishReason: intents.length > 0 ? 'tool_calls' : 'stop',
  });
  const deliver = (messageId: string, text: string) =>
    world.append(
      task,
      'MessageDeliveredToInbox',
      { itemId: messageId, messageId, text, language: 'en', from: 'u1' },
      { actor: router },
    );

  // The person's message, routed to a new task.
  await world.append(
    main,
    'UserMessageReceived',
    { messageId: messages.origin, userId: 'u1', text: goal, language: 'en', channel: 'ui' },
    { actor: person },
  );
  await world.append(
    main,
    'RoutingDecided',
    { messageId: messages.origin, outcome: 'new', taskId, method: 'deterministic', candidates: [] },
    { actor: router },
  );
  await world.append(
    task,
    'TaskCreated',
    { taskId, kind: 'persistent', goal, language: 'en', originMessageId: messages.origin },
    { actor: router },
  );
  await deliver(messages.origin, goal);

  // Turn 1: a paid call, its lease taken over by worker-b, a question card.
  await world.append(task, 'TurnOpened', { turnId: turns[0], reason: 'message' });
  await world.append(turn1, 'TurnStarted', { turnId: turns[0], taskId, reason: 'message' });
  await world.append(
    turn1,
    'TurnLeased',
    { workerId: 'worker-a', generation: 1, leaseUntil: until },
    { generation: 1 },
  );
  await world.append(
    task,
    'InboxItemsClaimed',
    { turnId: turns[0], step: 1, itemIds: [messages.origin] },
    { actor: runtime, generation: 1 },
  );
  const p1 = await archive.store(promptOf(goal), taskId);
  await world.append(
    turn1,
    'ModelStepCommitted',
    step(
      1,
      'I will draw the fox.',
      p1,
      [messages.origin],
      [{ callId, tool: 'image.generate', arguments: { prompt: 'a red fox' } }],
    ),
    { actor: runtime, generation: 1 },
  );
  await world.append(
    turn1,
    'TurnLeased',
    { workerId: 'worker-b', generation: 2, leaseUntil: until },
    { generation: 2 },
  );
  await world.append(
    turn1,
    'ToolCallStarted',
    { callId, tool: 'image.generate', idempotencyKey: callId, attempt: 1 },
    { actor: runtime, generation: 2 },
  );
  const quote = {
    quoteId: randomUUID(),
    provider: 'simulated',
    units: 1,
    unit: 'image',
    unitPriceMinor: 400,
    amountMinor: 400,
    currency: 'USD',
  };
  await world.append(
    streams.generation(jobId),
    'GenerationRequested',
    {
      jobId,
      workspaceId: 'ws1',
      taskId,
      turnId: turns[0],
      callId,
      provider: 'simulated',
      kind: 'image',
      operation: 'generate',
      params: { prompt: 'a red fox', options: {} },
      quote,
      requestedAt: world.clock,
    },
    { actor: runtime },
  );
  await world.append(streams.account('ws1'), 'QuoteIssued', { quote, jobId, taskId, callId, issuedAt: world.clock });
  await world.append(streams.account('ws1'), 'JobCharged', {
    entryId: randomUUID(),
    jobId,
    amountMinor: 400,
    currency: 'USD',
    chargedAt: world.clock,
  });
  await world.append(
    turn1,
    'ToolCallCompleted',
    { callId, status: 'ok', result: { jobId } },
    { actor: runtime, generation: 2 },
  );
  await world.append(
    task,
    'CheckpointOpened',
    { checkpointId, turnId: turns[0], kind: 'question', question: 'Which shade of red?' },
    { actor: runtime, generation: 2 },
  );
  await world.append(
    task,
    'CheckpointResolved',
    { checkpointId, decision: 'answer', answer: 'crimson', resolvedBy: 'u1' },
    { actor: person },
  );
  await world.append(turn1, 'TurnCompleted', { steps: 1 }, { actor: runtime, generation: 2 });
  await world.append(task, 'TurnClosed', { turnId: turns[0], outcome: 'completed' });
  await world.append(task, 'ContinuationDecided', {
    turnId: turns[0],
    decision: 'await_person',
    reason: 'no_plan',
    progress: ['job_submitted'],
    autoTurns: 0,
    turnsWithoutProgress: 0,
    itemsDone: 0,
  });

  // Turn 2: the message that will be forgotten, consumed by step 1, in step 2's history.
  await deliver(messages.forgotten, secret);
  await world.append(task, 'TurnOpened', { turnId: turns[1], reason: 'message' });
  await world.append(turn2, 'TurnStarted', { turnId: turns[1], taskId, reason: 'message' });
  await world.append(
    turn2,
    'TurnLeased',
    { workerId: 'worker-a', generation: 1, leaseUntil: until },
    { generation: 1 },
  );
  await world.append(
    task,
    'InboxItemsClaimed',
    { turnId: turns[1], step: 1, itemIds: [messages.forgotten] },
    { actor: runtime, generation: 1 },
  );
  const p2 = await archive.store(promptOf(goal, 'I will draw the fox.', secret), taskId);
  await world.append(turn2, 'ModelStepCommitted', step(1, `Noted: ${secret}`, p2, [messages.forgotten]), {
    actor: runtime,
    generation: 1,
  });
  const p3 = await archive.store(
    promptOf(goal, 'I will draw the fox.', secret, `Noted: ${secret}`, 'continue'),
    taskId,
  );
  await world.append(turn2, 'ModelStepCommitted', step(2, 'Anything else?', p3, []), { actor: runtime, generation: 1 });
  await world.append(turn2, 'TurnCompleted', { steps: 2 }, { actor: runtime, generation: 1 });
  await world.append(task, 'TurnClosed', { turnId: turns[1], outcome: 'completed' });

  // The person forgot it: the cascade excludes the message and the step that consumed it.
  await world.append(
    task,
    'ContextExcluded',
    {
      forgettingId: randomUUID(),
      messageIds: [messages.forgotten],
      steps: [{ turnId: turns[1], step: 1 }],
    },
    { actor: { kind: 'system', component: 'memory' } },
  );

  // Turn 3: built after the exclusion, its prompt holds no forgotten text.
  await deliver(messages.later, later);
  await world.append(task, 'TurnOpened', { turnId: turns[2], reason: 'message' });
  await world.append(turn3, 'TurnStarted', { turnId: turns[2], taskId, reason: 'message' });
  await world.append(
    turn3,
    'TurnLeased',
    { workerId: 'worker-a', generation: 1, leaseUntil: until },
    { generation: 1 },
  );
  await world.append(
    task,
    'InboxItemsClaimed',
    { turnId: turns[2], step: 1, itemIds: [messages.later] },
    { actor: runtime, generation: 1 },
  );
  const p4 = await archive.store(promptOf(goal, 'I will draw the fox.', later), taskId);
  await world.append(turn3, 'ModelStepCommitted', step(1, 'Blue it is.', p4, [messages.later]), {
    actor: runtime,
    generation: 1,
  });
  await world.append(turn3, 'TurnCompleted', { steps: 1 }, { actor: runtime, generation: 1 });
  await world.append(task, 'TurnClosed', { turnId: turns[2], outcome: 'completed' });

  return {
    taskId,
    turns,
    messages,
    callId,
    jobId,
    checkpointId,
    goal,
    secret,
    prompts: { turn1step1: p1, turn2step1: p2, turn2step2: p3, turn3step1: p4 },
  };
}
