import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { waitFor } from '@lomo/bus/testing';
import { streams, type NewEvent } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import {
  createToken,
  eventually,
  startStandaloneApi,
  type GraphqlResponse,
  type RunningApi,
} from './support/standalone-api';
import { SEND_MESSAGE, sendAndSettle } from './support/queries';

const codeOf = (r: GraphqlResponse<unknown>) => r.errors?.[0]?.extensions?.code;

const ANSWER = `mutation($card: ID!, $option: String, $text: String) {
  answerClarification(cardId: $card, optionId: $option, text: $text) { cardId messageId created consistencyToken }
}`;
const MOVE = `mutation($m: ID!, $to: ID!) {
  moveMessage(messageId: $m, toTaskId: $to) { messageId fromTaskId toTaskId consumed changed consistencyToken }
}`;
const MERGE = `mutation($s: ID!, $t: ID!) {
  mergeTasks(sourceId: $s, targetId: $t) { sourceTaskId targetTaskId movedItemIds changed consistencyToken }
}`;
const UPGRADE = `mutation($id: ID!) { upgradeTask(taskId: $id) { taskId changed consistencyToken } }`;
const PAUSE = `mutation($id: ID!) { pauseTask(taskId: $id) { taskId changed consistencyToken } }`;
const TASKS = `query($kind: TaskListKind, $t: String) {
  tasks(first: 100, kind: $kind, consistentWith: $t) { edges { node { id kind } } }
}`;
const TASK = `query($id: ID!, $t: String) {
  task(id: $id, consistentWith: $t) {
    id kind status summary mergedInto
    counts { inboxPending inboxMoved }
    inbox(first: 20) { edges { node { id status movedTo { taskId consumed } movedFrom { taskId consumedThere note } } } }
  }
}`;
const MESSAGE = `query($id: ID!, $t: String) {
  message(id: $id, consistentWith: $t) {
    id text channel answersCardId
    routing { outcome taskId method reason answersCardId }
    reply { text }
    clarification {
      cardId question reason language
      options { optionId label action taskId }
      answered { optionId text answerMessageId }
    }
  }
}`;

interface TaskView {
  id: string;
  kind: string;
  status: string;
  summary: string | null;
  mergedInto: string | null;
  counts: { inboxPending: number; inboxMoved: number };
  inbox: {
    edges: Array<{
      node: {
        id: string;
        status: string;
        movedTo: { taskId: string; consumed: boolean } | null;
        movedFrom: { taskId: string; consumedThere: boolean; note: string } | null;
      };
    }>;
  };
}
interface MessageView {
  id: string;
  text: string;
  channel: string;
  answersCardId: string | null;
  routing: { outcome: string; taskId: string | null } | null;
  reply: { text: string } | null;
  clarification: {
    cardId: string;
    question: string;
    reason: string;
    language: string;
    options: Array<{ optionId: string; label: string; action: string; taskId: string | null }>;
    answered: { optionId: string | null; text: string | null; answerMessageId: string } | null;
  } | null;
}

/** Writes events into the app's store from this process, as another writer of the same file would. */
async function appendDirectly(
  api: RunningApi,
  streamId: string,
  workspaceId: string,
  events: Array<Omit<NewEvent, 'eventId' | 'metadata'>>,
) {
  const store = new SqliteEventStore({ filename: path.join(api.dataDir, 'events.sqlite') });
  try {
    const metadata = {
      correlationId: randomUUID(),
      causationId: null,
      workspaceId,
      actor: { kind: 'system' as const, component: 'router' },
    };
    await store.append(
      streamId,
      events.map((e) => ({ ...e, eventId: randomUUID(), metadata })),
      'any',
    );
  } finally {
    await store.close();
  }
}

/** Waits until nothing has been appended for a while: the turns the setup started have finished. */
async function quiet(api: RunningApi, forMs = 1_500): Promise<string | undefined> {
  let last = await api.headPosition();
  let since = Date.now();
  await waitFor(
    async () => {
      const head = await api.headPosition();
      if (head !== last) {
        last = head;
        since = Date.now();
      }
      return Date.now() - since >= forMs;
    },
    'a quiet store',
    30_000,
    250,
  );
  return last;
}

// The person's corrections through the API of the embedded app: each refusal is typed and appends
// nothing; each correction shows in the read models.
describe('routing corrections over the API', () => {
  let api: RunningApi;
  let alice: { id: string; token: string };
  let ann: { id: string; token: string };
  let bob: { id: string; token: string };
  /** Two of alice's tasks, settled (their first turn completed). */
  let first: Awaited<ReturnType<typeof sendAndSettle>>;
  let second: Awaited<ReturnType<typeof sendAndSettle>>;
  let bobs: Awaited<ReturnType<typeof sendAndSettle>>;
  const cardId = randomUUID();

  const task = (token: string, id: string, t?: string) =>
    api.gql<{ task: TaskView | null }>(token, TASK, { id, ...(t !== undefined ? { t } : {}) });
  const message = (token: string, id: string, t?: string) =>
    api.gql<{ message: MessageView | null }>(token, MESSAGE, { id, ...(t !== undefined ? { t } : {}) });
  const listed = async (token: string, kind?: string, t?: string) => {
    const r = await api.gql<{ tasks: { edges: Array<{ node: { id: string; kind: string } }> } }>(token, TASKS, {
      ...(kind !== undefined ? { kind } : {}),
      ...(t !== undefined ? { t } : {}),
    });
    expect(r.errors).toBeUndefined();
    return r.data!.tasks.edges.map((e) => e.node.id);
  };

  beforeAll(async () => {
    api = await startStandaloneApi();
    alice = await createToken(api, 'ws_a', 'alice');
    ann = await createToken(api, 'ws_a', 'ann');
    bob = await createToken(api, 'ws_b', 'bob');
    first = await sendAndSettle(api, alice.token, 'Please draft a poster for the spring fair');
    second = await sendAndSettle(api, alice.token, 'Please write a haiku about rain');
    bobs = await sendAndSettle(api, bob.token, 'Please take a note: buy milk');
    // A clarification card on alice's line, as the router writes one (it asks about her first message).
    await appendDirectly(api, streams.main('ws_a', 'alice'), 'ws_a', [
      {
        type: 'ClarificationRequested',
        data: {
          messageId: first.messageId,
          cardId,
          question: 'Which task do you mean?',
          options: [
            { optionId: 'poster', label: 'The spring fair poster', action: 'route', taskId: first.taskId },
            { optionId: 'new', label: 'Start a new one', action: 'new' },
          ],
          reason: 'ambiguous',
          language: 'en',
        },
      },
    ]);
  }, 180_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('the main line shows the clarification card with its options, unanswered', async () => {
    const seen = await eventually(
      () => message(alice.token, first.messageId),
      (r) => r.data?.message?.clarification != null,
      'the card on the main line',
    );
    expect(seen.data?.message?.clarification).toEqual({
      cardId,
      question: 'Which task do you mean?',
      reason: 'AMBIGUOUS',
      language: 'en',
      options: [
        { optionId: 'poster', label: 'The spring fair poster', action: 'ROUTE', taskId: first.taskId },
        { optionId: 'new', label: 'Start a new one', action: 'NEW', taskId: null },
      ],
      answered: null,
    });
  });

  it("the main line shows Main's own reply to a message", async () => {
    const replyId = randomUUID();
    await appendDirectly(api, streams.main('ws_a', 'alice'), 'ws_a', [
      {
        type: 'MainReplied',
        data: { messageId: second.messageId, replyId, text: 'A haiku is three lines: 5, 7, 5.', language: 'en' },
      },
    ]);
    const seen = await eventually(
      () => message(alice.token, second.messageId),
      (r) => r.data?.message?.reply != null,
      'the reply on the main line',
    );
    expect(seen.data?.message?.reply).toEqual({ text: 'A haiku is three lines: 5, 7, 5.' });
    // Someone else's line does not show it.
    expect((await message(ann.token, second.messageId)).data?.message).toBeNull();
  });

  it('refuses bad corrections with typed errors and appends nothing', async () => {
    const before = await quiet(api);
    const unknownCard = randomUUID();
    const cases: Array<[string, string, string, Record<string, unknown>, string]> = [
      ['another person’s card (same workspace)', ann.token, ANSWER, { card: cardId, option: 'poster' }, 'NOT_FOUND'],
      ['another workspace’s card', bob.token, ANSWER, { card: cardId, option: 'poster' }, 'NOT_FOUND'],
      ['an unknown card', alice.token, ANSWER, { card: unknownCard, option: 'poster' }, 'NOT_FOUND'],
      ['an option the card does not offer', alice.token, ANSWER, { card: cardId, option: 'lisbon' }, 'UNKNOWN_OPTION'],
      [
        'both an option and a text',
        alice.token,
        ANSWER,
        { card: cardId, option: 'poster', text: 'the poster' },
        'VALIDATION_FAILED',
      ],
      ['neither an option nor a text', alice.token, ANSWER, { card: cardId }, 'VALIDATION_FAILED'],
      [
        'a move to a task of another workspace',
        alice.token,
        MOVE,
        { m: second.messageId, to: bobs.taskId },
        'NOT_FOUND',
      ],
      ['a move of another workspace’s message', bob.token, MOVE, { m: first.messageId, to: bobs.taskId }, 'NOT_FOUND'],
      ['a move of another person’s message', ann.token, MOVE, { m: first.messageId, to: second.taskId }, 'NOT_FOUND'],
      ['a move to the task it is in', alice.token, MOVE, { m: first.messageId, to: first.taskId }, 'MOVE_TO_SAME_TASK'],
      ['a merge of a task into itself', alice.token, MERGE, { s: first.taskId, t: first.taskId }, 'MERGE_INTO_SELF'],
      ['a merge into another workspace’s task', alice.token, MERGE, { s: first.taskId, t: bobs.taskId }, 'NOT_FOUND'],
      ['an upgrade of another workspace’s task', alice.token, UPGRADE, { id: bobs.taskId }, 'NOT_FOUND'],
    ];
    for (const [name, token, query, variables, code] of cases) {
      const result = await api.gql<unknown>(token, query, variables);
      expect({ name, code: codeOf(result), data: result.data ?? null }).toEqual({ name, code, data: null });
    }
    expect(await api.headPosition()).toBe(before);
  });

  it('answerClarification answers the card once: a retry returns the same message, another answer is refused', async () => {
    const answered = await api.gql<{
      answerClarification: { messageId: string; created: boolean; consistencyToken: string };
    }>(alice.token, ANSWER, { card: cardId, option: 'poster' });
    expect(answered.errors).toBeUndefined();
    const { messageId, created, consistencyToken } = answered.data!.answerClarification;
    expect(created).toBe(true);
    const answer = await message(alice.token, messageId, consistencyToken);
    expect(answer.data?.message).toMatchObject({
      id: messageId,
      text: 'The spring fair poster',
      channel: 'CARD',
      answersCardId: cardId,
    });

    const retry = await api.gql<{ answerClarification: { messageId: string; created: boolean } }>(alice.token, ANSWER, {
      card: cardId,
      option: 'poster',
    });
    expect(retry.data?.answerClarification).toMatchObject({ cardId, messageId, created: false });
    // The router is still routing the answer (a new task, with today's router): wait it out.
    const before = await quiet(api);
    const other = await api.gql<unknown>(alice.token, ANSWER, { card: cardId, text: 'no, a new one' });
    expect(codeOf(other)).toBe('CARD_ALREADY_ANSWERED');
    expect(await api.headPosition()).toBe(before);

    // The router resolves the card when it routes the answer; written here as it writes it.
    await appendDirectly(api, streams.main('ws_a', 'alice'), 'ws_a', [
      {
        type: 'ClarificationAnswered',
        data: { cardId, messageId: first.messageId, answerMessageId: messageId, optionId: 'poster', by: 'alice' },
      },
    ]);
    const resolved = await eventually(
      () => message(alice.token, first.messageId),
      (r) => r.data?.message?.clarification?.answered != null,
      'the card answered on the main line',
    );
    expect(resolved.data?.message?.clarification?.answered).toEqual({
      optionId: 'poster',
      text: null,
      answerMessageId: messageId,
    });
    const settledHead = await quiet(api);
    const again = await api.gql<unknown>(alice.token, ANSWER, { card: cardId, option: 'new' });
    expect(codeOf(again)).toBe('CARD_ALREADY_ANSWERED');
    expect(await api.headPosition()).toBe(settledHead);
  });

  it('tasks() hides a lightweight task unless asked; upgradeTask lists it with the persistent ones', async () => {
    const lightweight = randomUUID();
    await appendDirectly(api, streams.task(lightweight), 'ws_a', [
      {
        type: 'TaskCreated',
        data: {
          taskId: lightweight,
          kind: 'lightweight',
          goal: 'A one-shot sketch',
          language: 'en',
          originMessageId: randomUUID(),
        },
      },
    ]);
    await eventually(
      () => task(alice.token, lightweight),
      (r) => r.data?.task != null,
      'the lightweight task in the read model',
    );
    const persistent = await listed(alice.token);
    expect(persistent).toEqual(expect.arrayContaining([first.taskId, second.taskId]));
    expect(persistent).not.toContain(lightweight);
    expect(await listed(alice.token, 'PERSISTENT')).toEqual(persistent);
    expect(await listed(alice.token, 'LIGHTWEIGHT')).toEqual([lightweight]);
    expect(await listed(alice.token, 'ALL')).toEqual(expect.arrayContaining([lightweight, ...persistent]));
    // Another workspace lists none of them, whatever the kind.
    expect(await listed(bob.token, 'ALL')).toEqual([bobs.taskId]);

    const upgraded = await api.gql<{ upgradeTask: { changed: boolean; consistencyToken: string } }>(
      alice.token,
      UPGRADE,
      {
        id: lightweight,
      },
    );
    expect(upgraded.data?.upgradeTask.changed).toBe(true);
    const token = upgraded.data!.upgradeTask.consistencyToken;
    expect(await listed(alice.token, undefined, token)).toContain(lightweight);
    expect(await listed(alice.token, 'LIGHTWEIGHT', token)).toEqual([]);
    expect((await task(alice.token, lightweight, token)).data?.task?.kind).toBe('PERSISTENT');
    // Again, or a task that always was persistent: nothing to do.
    for (const id of [lightweight, first.taskId]) {
      const repeat = await api.gql<{ upgradeTask: { changed: boolean } }>(alice.token, UPGRADE, { id });
      expect({ id, errors: repeat.errors, changed: repeat.data?.upgradeTask.changed }).toEqual({
        id,
        errors: undefined,
        changed: false,
      });
    }
  });

  it('a task shows the summary the runtime keeps after each turn', async () => {
    const seen = await eventually(
      () => task(alice.token, first.taskId),
      (r) => r.data?.task?.summary != null,
      'a routing summary',
    );
    expect(seen.data?.task?.summary).toEqual(expect.stringContaining('poster'));
  });

  it('moveMessage: a message the old task had read is copied with a note; an unread one leaves the old inbox', async () => {
    // Read already: second's message stays in second as history, first gets a copy.
    const moved = await api.gql<{ moveMessage: Record<string, unknown> & { consistencyToken: string } }>(
      alice.token,
      MOVE,
      {
        m: second.messageId,
        to: first.taskId,
      },
    );
    expect(moved.errors).toBeUndefined();
    expect(moved.data?.moveMessage).toMatchObject({
      messageId: second.messageId,
      fromTaskId: second.taskId,
      toTaskId: first.taskId,
      consumed: true,
      changed: true,
    });
    const t = moved.data!.moveMessage.consistencyToken;
    const target = (await task(alice.token, first.taskId, t)).data!.task!;
    // Delivered, and perhaps claimed already by the turn the move woke.
    expect(target.inbox.edges.map((e) => e.node)).toContainEqual({
      id: second.messageId,
      status: expect.stringMatching(/^(DELIVERED|CLAIMED)$/),
      movedTo: null,
      movedFrom: { taskId: second.taskId, consumedThere: true, note: expect.stringContaining(second.taskId) },
    });
    const source = (await task(alice.token, second.taskId, t)).data!.task!;
    expect(source.inbox.edges.find((e) => e.node.id === second.messageId)?.node).toMatchObject({
      status: 'CLAIMED',
      movedTo: { taskId: first.taskId, consumed: true },
    });

    // Unread: second is paused, a message waits in its inbox, then moves to first.
    await quiet(api);
    const paused = await api.gql<{ pauseTask: { changed: boolean } }>(alice.token, PAUSE, { id: second.taskId });
    expect(paused.errors).toBeUndefined();
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(alice.token, SEND_MESSAGE, {
      text: 'Make the haiku about snow instead',
      taskId: second.taskId,
    });
    const waiting = sent.data!.sendMessage.messageId;
    await eventually(
      () => task(alice.token, second.taskId),
      (r) => r.data?.task?.inbox.edges.some((e) => e.node.id === waiting) === true,
      'the message in the paused task’s inbox',
    );
    const out = await api.gql<{ moveMessage: { consumed: boolean; consistencyToken: string } }>(alice.token, MOVE, {
      m: waiting,
      to: first.taskId,
    });
    expect(out.data?.moveMessage.consumed).toBe(false);
    const after = (await task(alice.token, second.taskId, out.data!.moveMessage.consistencyToken)).data!.task!;
    expect(after.inbox.edges.find((e) => e.node.id === waiting)?.node).toMatchObject({
      status: 'MOVED',
      movedTo: { taskId: first.taskId, consumed: false },
    });
    expect(after.counts).toEqual({ inboxPending: 0, inboxMoved: 1 });
    const arrived = (await task(alice.token, first.taskId, out.data!.moveMessage.consistencyToken)).data!.task!;
    expect(arrived.inbox.edges.find((e) => e.node.id === waiting)?.node.movedFrom).toMatchObject({
      taskId: second.taskId,
      consumedThere: false,
    });
  });

  it('mergeTasks: the source’s unread messages move to the target, the source is archived pointing at it', async () => {
    const third = await sendAndSettle(api, alice.token, 'Please plan a picnic');
    await quiet(api);
    await api.gql(alice.token, PAUSE, { id: third.taskId });
    const sent = await api.gql<{ sendMessage: { messageId: string } }>(alice.token, SEND_MESSAGE, {
      text: 'Bring lemonade too',
      taskId: third.taskId,
    });
    const waiting = sent.data!.sendMessage.messageId;
    await eventually(
      () => task(alice.token, third.taskId),
      (r) => r.data?.task?.inbox.edges.some((e) => e.node.id === waiting) === true,
      'the message in the paused task’s inbox',
    );
    const merged = await api.gql<{ mergeTasks: Record<string, unknown> & { consistencyToken: string } }>(
      alice.token,
      MERGE,
      {
        s: third.taskId,
        t: first.taskId,
      },
    );
    expect(merged.errors).toBeUndefined();
    expect(merged.data?.mergeTasks).toMatchObject({
      sourceTaskId: third.taskId,
      targetTaskId: first.taskId,
      movedItemIds: [waiting],
      changed: true,
    });
    const t = merged.data!.mergeTasks.consistencyToken;
    const source = (await task(alice.token, third.taskId, t)).data!.task!;
    expect(source).toMatchObject({ status: 'ARCHIVED', mergedInto: first.taskId });
    expect(source.inbox.edges.find((e) => e.node.id === waiting)?.node.status).toBe('MOVED');
    const target = (await task(alice.token, first.taskId, t)).data!.task!;
    expect(target.inbox.edges.find((e) => e.node.id === waiting)?.node.movedFrom).toMatchObject({
      taskId: third.taskId,
      consumedThere: false,
    });
    // The same merge again changes nothing; the archived source is listed only by status.
    const again = await api.gql<{ mergeTasks: { changed: boolean } }>(alice.token, MERGE, {
      s: third.taskId,
      t: first.taskId,
    });
    expect(again.data?.mergeTasks.changed).toBe(false);
  });
});
