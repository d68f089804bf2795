import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_BUS, InProcessEventBus, type ConsumerHandle, type ReceivedMessage } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { handleCommand } from '@lomo/command-handling';
import {
  CLOCK,
  ID_GENERATOR,
  systemClock,
  streams,
  WAKE_UP_TOPIC,
  type Actor,
  type EventEnvelope,
  type WriteMetadata,
} from '@lomo/contracts';
import {
  mainLineDecider,
  mainLineEventTypes,
  taskDecider,
  taskEventTypes,
  turnDecider,
  turnEventTypes,
  type MainLineCommand,
  type TaskCommand,
  type TurnCommand,
} from '@lomo/domain';
import { EVENT_STORE, SqliteEventStore } from '@lomo/eventstore';
import { createLogger, LOGGER } from '@lomo/observability';
import { AnswerClarification } from '../messages/answer-clarification.command';
import { MessagesModule } from '../messages/messages.module';
import type { ReceiveUserMessageResult } from '../messages/receive-user-message.command';
import {
  MergeTasks,
  MoveMessage,
  UpdateTaskSummary,
  UpgradeTask,
  type CorrectionResult,
  type MergeTasksResult,
  type MoveMessageResult,
} from './correction-commands';
import { TaskCommandsModule } from './task-commands.module';

const WS = 'ws_corr';
const OTHER_WS = 'ws_other';
const USER = 'u_corr';
const OTHER_USER = 'u_else';
const person: Actor = { kind: 'user', userId: USER };

const meta = (workspaceId: string, actor: Actor = person): WriteMetadata => ({
  correlationId: 'corr-test',
  causationId: null,
  workspaceId,
  actor,
});

describe('corrections and card answers: SQLite store, in-process bus, the Nest command bus', () => {
  let dir: string;
  let store: SqliteEventStore;
  let bus: InProcessEventBus;
  let probe: ConsumerHandle;
  let app: INestApplicationContext;
  let commands: CommandBus;
  const wakeUps: ReceivedMessage[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-corrections-'));
    store = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite'), pollIntervalMs: 5 });
    bus = InProcessEventBus.open({ filename: path.join(dir, 'bus.sqlite'), pollIntervalMs: 5 });
    await bus.ensureTopics([{ name: WAKE_UP_TOPIC, partitions: 2 }]);
    probe = await bus.subscribe({
      groupId: 'wake-up-probe',
      topics: [WAKE_UP_TOPIC],
      fromBeginning: true,
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      handler: async (message) => {
        wakeUps.push(message);
      },
    });
    @Global()
    @Module({
      providers: [
        { provide: EVENT_STORE, useValue: store },
        { provide: EVENT_BUS, useValue: bus },
        { provide: LOGGER, useValue: createLogger({ level: 'silent' }) },
        { provide: ID_GENERATOR, useValue: { uuid: () => randomUUID() } },
        // The plan-budget handler of TaskCommandsModule dates the account's approval.
        { provide: CLOCK, useValue: systemClock },
      ],
      exports: [EVENT_STORE, EVENT_BUS, LOGGER, ID_GENERATOR, CLOCK],
    })
    class TestPlatformModule {}
    @Module({ imports: [TestPlatformModule, TaskCommandsModule, MessagesModule] })
    class TestApp {}
    app = await NestFactory.createApplicationContext(TestApp, { logger: false });
    await app.init();
    commands = app.get(CommandBus);
  });

  afterAll(async () => {
    await app?.close();
    await probe?.stop();
    await bus?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = { uuid: () => randomUUID() };
  const onTask = (taskId: string, command: TaskCommand | TaskCommand[], workspaceId = WS) =>
    handleCommand(store, streams.task(taskId), taskDecider, () => command, {
      eventTypes: taskEventTypes,
      metadata: meta(workspaceId),
      ids,
    });
  const onMain = (command: MainLineCommand, userId = USER, workspaceId = WS) =>
    handleCommand(store, streams.main(workspaceId, userId), mainLineDecider, command, {
      eventTypes: mainLineEventTypes,
      metadata: meta(workspaceId, { kind: 'user', userId }),
      ids,
    });
  const onTurn = (turnId: string, command: TurnCommand[]) =>
    handleCommand(store, streams.turn(turnId), turnDecider, () => command, {
      eventTypes: turnEventTypes,
      metadata: meta(WS, { kind: 'system', component: 'executor' }),
      ids,
    });

  /** A task of the workspace, created from a message of its own. */
  async function givenTask(kind: 'persistent' | 'lightweight' = 'persistent', workspaceId = WS): Promise<string> {
    const taskId = randomUUID();
    await onTask(
      taskId,
      { type: 'CreateTask', taskId, kind, goal: 'Design a poster', language: 'en', originMessageId: randomUUID() },
      workspaceId,
    );
    return taskId;
  }

  /** A person's message on their main line, routed to `taskId` and delivered there, as the router leaves it. */
  async function givenRouted(taskId: string, text: string, userId = USER): Promise<string> {
    const messageId = randomUUID();
    await onMain({ type: 'ReceiveMessage', messageId, userId, text, language: 'en', channel: 'ui' }, userId);
    await onMain(
      {
        type: 'RecordRoutingDecision',
        messageId,
        outcome: 'existing',
        taskId,
        method: 'deterministic',
        candidates: [],
      },
      userId,
    );
    await onTask(taskId, { type: 'DeliverMessage', itemId: messageId, text, language: 'en' });
    return messageId;
  }

  const typesOf = async (streamId: string) => (await store.readStream(streamId)).map((e) => e.type);
  const dataOf = async (streamId: string, type: string) =>
    (await store.readStream(streamId)).filter((e: EventEnvelope) => e.type === type).map((e) => e.data);
  const run = <R>(command: object) => commands.execute<object, R>(command);

  /** The refusal's code, and that the store's head did not move. */
  async function refusedWith(command: object): Promise<string> {
    const head = await store.headPosition();
    const error = await run(command).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    expect(await store.headPosition()).toEqual(head);
    return error?.code ?? 'no error';
  }

  describe('MoveMessage', () => {
    it('moves an unread message: withdrawn from the source, delivered to the target with a note, the target woken', async () => {
      const [a, b] = [await givenTask(), await givenTask()];
      const messageId = await givenRouted(a, 'make the other poster warmer');

      const result = await run<MoveMessageResult>(new MoveMessage(WS, USER, messageId, b));

      expect(result).toMatchObject({ messageId, sourceTaskId: a, toTaskId: b, consumed: false, changed: true });
      expect(result.writes).toEqual([
        { streamId: streams.task(a), revision: 2 },
        { streamId: streams.task(b), revision: 1 },
      ]);
      expect(await dataOf(streams.task(a), 'MessageMoved')).toEqual([
        { itemId: messageId, messageId, toTaskId: b, consumed: false, by: USER },
      ]);
      expect(await dataOf(streams.task(b), 'MessageDeliveredToInbox')).toEqual([
        {
          itemId: messageId,
          messageId,
          text: 'make the other poster warmer',
          language: 'en',
          movedFrom: { taskId: a, note: expect.stringContaining(a), consumedThere: false },
        },
      ]);
      await waitFor(async () => wakeUps.some((m) => m.value.taskId === b), 'the target woken', 5_000);
    });

    it('the same move again writes nothing; a later move starts from where the message is now', async () => {
      const [a, b, c] = [await givenTask(), await givenTask(), await givenTask()];
      const messageId = await givenRouted(a, 'this belongs elsewhere');
      await run(new MoveMessage(WS, USER, messageId, b));
      const head = await store.headPosition();

      const again = await run<MoveMessageResult>(new MoveMessage(WS, USER, messageId, b));
      expect(again).toMatchObject({ sourceTaskId: a, toTaskId: b, changed: false });
      expect(await store.headPosition()).toEqual(head);

      const onward = await run<MoveMessageResult>(new MoveMessage(WS, USER, messageId, c));
      expect(onward).toMatchObject({ sourceTaskId: b, toTaskId: c, consumed: false, changed: true });
      expect(await dataOf(streams.task(c), 'MessageDeliveredToInbox')).toMatchObject([{ movedFrom: { taskId: b } }]);
    });

    it('completes a half-done move (crash after the source side): one delivery on the target', async () => {
      const [a, b] = [await givenTask(), await givenTask()];
      const messageId = await givenRouted(a, 'half moved');
      await onTask(a, { type: 'MoveMessageOut', itemId: messageId, toTaskId: b, by: USER });

      const result = await run<MoveMessageResult>(new MoveMessage(WS, USER, messageId, b));

      expect(result).toMatchObject({ sourceTaskId: a, consumed: false, changed: true });
      expect(await typesOf(streams.task(b))).toEqual(['TaskCreated', 'MessageDeliveredToInbox']);
      expect(await typesOf(streams.task(a))).toEqual(['TaskCreated', 'MessageDeliveredToInbox', 'MessageMoved']);
    });

    it('a message a committed step read moves as a copy and stays with the source', async () => {
      const [a, b] = [await givenTask(), await givenTask()];
      const messageId = await givenRouted(a, 'read already');
      const turnId = randomUUID();
      await onTask(a, [
        { type: 'OpenTurn', turnId, reason: 'message' },
        { type: 'ClaimInboxItems', turnId, step: 1 },
      ]);
      const committed = await onTurn(turnId, [
        { type: 'StartTurn', turnId, taskId: a, reason: 'message' },
        { type: 'TakeLease', workerId: 'w1', now: new Date().toISOString(), leaseMs: 60_000 },
      ]);
      expect(committed.changed).toBe(true);
      // Claimed, step not committed yet: refused like a withdrawal.
      expect(await refusedWith(new MoveMessage(WS, USER, messageId, b))).toBe('INBOX_ITEM_CLAIMED');
      await onTurn(turnId, [
        {
          type: 'CommitStep',
          generation: 1,
          step: 1,
          reply: 'Done.',
          toolCallIntents: [],
          consumedItemIds: [messageId],
          usage: { inputTokens: 1, outputTokens: 1 },
          promptRef: { hash: 'a'.repeat(64), bytes: 1, contentType: 'application/json' },
          finishReason: 'stop',
        },
      ]);

      const result = await run<MoveMessageResult>(new MoveMessage(WS, USER, messageId, b));

      expect(result).toMatchObject({ sourceTaskId: a, consumed: true, changed: true });
      expect(await dataOf(streams.task(b), 'MessageDeliveredToInbox')).toMatchObject([
        { itemId: messageId, movedFrom: { taskId: a, consumedThere: true } },
      ]);
    });

    it('refuses, appending nothing: a task of another workspace, an unknown task, the same task, another person’s message', async () => {
      const a = await givenTask();
      const elsewhere = await givenTask('persistent', OTHER_WS);
      const messageId = await givenRouted(a, 'stay put');
      const theirs = await givenRouted(a, 'not yours', OTHER_USER);

      expect(await refusedWith(new MoveMessage(WS, USER, messageId, elsewhere))).toBe('TASK_NOT_FOUND');
      expect(await refusedWith(new MoveMessage(WS, USER, messageId, randomUUID()))).toBe('TASK_NOT_FOUND');
      expect(await refusedWith(new MoveMessage(WS, USER, messageId, a))).toBe('MOVE_TO_SAME_TASK');
      expect(await refusedWith(new MoveMessage(WS, USER, theirs, await givenTask()))).toBe('MESSAGE_NOT_FOUND');
      expect(await refusedWith(new MoveMessage(WS, USER, randomUUID(), a))).toBe('MESSAGE_NOT_FOUND');
    });

    it('refuses a stopped target before the source is touched', async () => {
      const [a, b] = [await givenTask(), await givenTask()];
      const messageId = await givenRouted(a, 'to a stopped task');
      await onTask(b, { type: 'StopTask', by: person });
      expect(await refusedWith(new MoveMessage(WS, USER, messageId, b))).toBe('TASK_STOPPED');
    });
  });

  describe('MergeTasks', () => {
    it('moves the open messages, archives the source with a pointer and wakes the target; a repeat writes nothing', async () => {
      const [source, target] = [await givenTask(), await givenTask()];
      const first = await givenRouted(source, 'first');
      const second = await givenRouted(source, 'second');

      const result = await run<MergeTasksResult>(new MergeTasks(WS, USER, source, target));

      expect(result).toMatchObject({ sourceTaskId: source, targetTaskId: target, movedItemIds: [first, second] });
      expect((await typesOf(streams.task(source))).slice(-2)).toEqual(['TasksMerged', 'TaskArchived']);
      expect(await dataOf(streams.task(source), 'TaskArchived')).toEqual([{ by: person, mergedInto: target }]);
      expect(await typesOf(streams.task(target))).toEqual([
        'TaskCreated',
        'TasksMerged',
        'MessageDeliveredToInbox',
        'MessageDeliveredToInbox',
      ]);
      expect(await dataOf(streams.task(target), 'TasksMerged')).toEqual([
        { sourceTaskId: source, targetTaskId: target, role: 'target', movedItemIds: [first, second], by: USER },
      ]);
      await waitFor(async () => wakeUps.some((m) => m.value.taskId === target), 'the target woken', 5_000);

      const head = await store.headPosition();
      expect(await run<MergeTasksResult>(new MergeTasks(WS, USER, source, target))).toMatchObject({ changed: false });
      expect(await store.headPosition()).toEqual(head);
    });

    it('completes a half-done merge (crash after the source side)', async () => {
      const [source, target] = [await givenTask(), await givenTask()];
      const only = await givenRouted(source, 'only one');
      await onTask(source, { type: 'MergeInto', targetTaskId: target, by: USER });

      const result = await run<MergeTasksResult>(new MergeTasks(WS, USER, source, target));

      expect(result).toMatchObject({ movedItemIds: [only], changed: true });
      expect(await typesOf(streams.task(target))).toEqual(['TaskCreated', 'TasksMerged', 'MessageDeliveredToInbox']);
    });

    it('refuses, appending nothing: into itself, a task of another workspace, a stopped target', async () => {
      const [source, stopped] = [await givenTask(), await givenTask()];
      const elsewhere = await givenTask('persistent', OTHER_WS);
      await onTask(stopped, { type: 'StopTask', by: person });

      expect(await refusedWith(new MergeTasks(WS, USER, source, source))).toBe('MERGE_INTO_SELF');
      expect(await refusedWith(new MergeTasks(WS, USER, source, elsewhere))).toBe('TASK_NOT_FOUND');
      expect(await refusedWith(new MergeTasks(WS, USER, elsewhere, source))).toBe('TASK_NOT_FOUND');
      expect(await refusedWith(new MergeTasks(WS, USER, source, stopped))).toBe('TASK_STOPPED');
    });
  });

  describe('UpgradeTask and UpdateTaskSummary', () => {
    it('upgrades a lightweight task once, naming who did it', async () => {
      const taskId = await givenTask('lightweight');
      const result = await run<CorrectionResult>(new UpgradeTask(WS, taskId, person, 'kept revising it'));
      expect(result).toMatchObject({
        taskId,
        changed: true,
        writes: [{ streamId: streams.task(taskId), revision: 1 }],
      });
      expect(await dataOf(streams.task(taskId), 'TaskUpgraded')).toEqual([
        { from: 'lightweight', to: 'persistent', reason: 'kept revising it', by: person },
      ]);
      expect(await run<CorrectionResult>(new UpgradeTask(WS, taskId, person, 'again'))).toMatchObject({
        changed: false,
      });
    });

    it('refuses a task of another workspace as not found', async () => {
      const elsewhere = await givenTask('lightweight', OTHER_WS);
      expect(await refusedWith(new UpgradeTask(WS, elsewhere, person, 'r'))).toBe('TASK_NOT_FOUND');
      expect(await refusedWith(new UpdateTaskSummary(WS, elsewhere, 'a summary'))).toBe('TASK_NOT_FOUND');
    });

    it('records the runtime summary; the same one again writes nothing', async () => {
      const taskId = await givenTask();
      const turnId = randomUUID();
      expect(
        await run<CorrectionResult>(new UpdateTaskSummary(WS, taskId, 'Design a poster — draft 1', turnId)),
      ).toMatchObject({
        changed: true,
      });
      expect(await run<CorrectionResult>(new UpdateTaskSummary(WS, taskId, 'Design a poster — draft 1'))).toMatchObject(
        {
          changed: false,
        },
      );
      expect(await dataOf(streams.task(taskId), 'TaskSummaryUpdated')).toEqual([
        { summary: 'Design a poster — draft 1', turnId, by: { kind: 'system', component: 'executor' } },
      ]);
    });
  });

  describe('AnswerClarification', () => {
    /** A message on the person's line that the router asked about, with a card of two options. */
    async function givenCard(userId = USER, language = 'en'): Promise<{ cardId: string; messageId: string }> {
      const messageId = randomUUID();
      const cardId = randomUUID();
      await onMain(
        { type: 'ReceiveMessage', messageId, userId, text: 'change it', language: 'en', channel: 'ui' },
        userId,
      );
      await onMain(
        {
          type: 'RequestClarification',
          messageId,
          cardId,
          question: 'Which poster?',
          options: [
            { optionId: 'poster_a', label: 'The jazz poster', action: 'route', taskId: randomUUID() },
            { optionId: 'new', label: 'Start a new one', action: 'new' },
          ],
          reason: 'ambiguous',
          language,
        },
        userId,
      );
      return { cardId, messageId };
    }
    const main = streams.main(WS, USER);

    it('an option becomes a card message on the person’s line naming the card; a retry returns the first result', async () => {
      const { cardId } = await givenCard(USER, 'fr');

      const result = await run<ReceiveUserMessageResult>(
        new AnswerClarification(WS, USER, cardId, { optionId: 'poster_a' }),
      );

      expect(result).toMatchObject({ streamId: main, created: true });
      const received = (await store.readStream(main)).find((e) => e.metadata.eventId === result.messageId);
      expect(received?.data).toMatchObject({
        messageId: result.messageId,
        userId: USER,
        text: 'The jazz poster',
        language: 'fr',
        channel: 'card',
        answersCardId: cardId,
      });
      const head = await store.headPosition();
      expect(await run(new AnswerClarification(WS, USER, cardId, { optionId: 'poster_a' }))).toEqual({
        ...result,
        created: false,
      });
      expect(await store.headPosition()).toEqual(head);
    });

    it('a text answer keeps the person’s own words and language', async () => {
      const { cardId } = await givenCard();
      const result = await run<ReceiveUserMessageResult>(
        new AnswerClarification(WS, USER, cardId, { text: '第二张海报' }),
      );
      const received = (await store.readStream(main)).find((e) => e.metadata.eventId === result.messageId);
      expect(received?.data).toMatchObject({ text: '第二张海报', channel: 'card', answersCardId: cardId });
      expect((received?.data as { language: string }).language).toMatch(/^zh/);
    });

    it('refuses, appending nothing: an unknown card, another person’s card, an unknown option, an answered card', async () => {
      const { cardId } = await givenCard();
      const theirs = await givenCard(OTHER_USER);

      expect(await refusedWith(new AnswerClarification(WS, USER, randomUUID(), { optionId: 'new' }))).toBe(
        'CARD_NOT_FOUND',
      );
      expect(await refusedWith(new AnswerClarification(WS, USER, theirs.cardId, { optionId: 'new' }))).toBe(
        'CARD_NOT_FOUND',
      );
      expect(await refusedWith(new AnswerClarification(WS, USER, cardId, { optionId: 'nope' }))).toBe('UNKNOWN_OPTION');
      expect(await refusedWith(new AnswerClarification(WS, USER, cardId, { text: '   ' }))).toBe('INVALID_COMMAND');

      // Answered and waiting for the router: a different answer is refused.
      const answer = await run<ReceiveUserMessageResult>(
        new AnswerClarification(WS, USER, cardId, { optionId: 'new' }),
      );
      expect(await refusedWith(new AnswerClarification(WS, USER, cardId, { optionId: 'poster_a' }))).toBe(
        'CARD_ALREADY_ANSWERED',
      );
      // Resolved by the router: a retry of the resolving answer gets its first result; any other is refused.
      await onMain({
        type: 'AnswerClarification',
        cardId,
        answerMessageId: answer.messageId,
        optionId: 'new',
        by: USER,
      });
      expect(
        await run<ReceiveUserMessageResult>(new AnswerClarification(WS, USER, cardId, { optionId: 'new' })),
      ).toMatchObject({ messageId: answer.messageId, created: false });
      expect(await refusedWith(new AnswerClarification(WS, USER, cardId, { text: 'the other one' }))).toBe(
        'CARD_ALREADY_ANSWERED',
      );
    });
  });
});
