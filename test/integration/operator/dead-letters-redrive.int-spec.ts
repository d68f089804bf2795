import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Caller } from '@lomo/auth';
import {
  InProcessEventBus,
  REDRIVE_OF_HEADER,
  toRelayedMessage,
  type ConsumerHandle,
  type ReceivedMessage,
} from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { systemClock, type EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { ModelUnavailableError } from '@lomo/llm';
import { silentLogger } from '@lomo/observability';
import {
  ConfirmationRequiredError,
  DeadLetterAlreadyRedrivenError,
  formatDeadLetterId,
  listDeadLetters,
  OperatorRoleRequiredError,
  redriveDeadLetters,
  type DeadLetterRow,
  type RedriveResult,
} from '@lomo/operator';
import { SqliteDocumentStore } from '@lomo/read-models';
import { WebhookService } from '@lomo/webhooks';
import { spawnTs } from '../bus/fixtures/spawn-ts';
import { TaskStream } from '../notifier/support/events';
import { eventually, notifierWithReceiver, testSettings } from '../notifier/support/notifier-harness';
import type { Step } from './fixtures/dead-letters.child';

// `lomo dlq list | redrive` across processes: what one process dead-lettered, the operator's CLI
// process (a child here, with its own bus and store on the same files) lists and sends back. The
// copy reaches the group that failed it, and only that group; the redrive is an operator action
// in the log, which is what marks the letter redriven; bad input is refused and changes nothing.

const CHILD = path.join(__dirname, 'fixtures/dead-letters.child.ts');
const TOPIC = 'lomo.events.task';

describe('bus dead letters redriven from the operator CLI process', () => {
  let dir: string;
  let busFile: string;
  let eventsFile: string;
  let bus: InProcessEventBus;
  let events: SqliteEventStore;
  const handles: ConsumerHandle[] = [];
  let memoryDown = true;
  const memoryHandled: ReceivedMessage[] = [];
  const routerHandled: ReceivedMessage[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-dlq-'));
    busFile = path.join(dir, 'bus.sqlite');
    eventsFile = path.join(dir, 'events.sqlite');
    events = new SqliteEventStore({ filename: eventsFile });
    bus = InProcessEventBus.open({ filename: busFile, pollIntervalMs: 25, heartbeatIntervalMs: 100 });
    await bus.ensureTopics([{ name: TOPIC, partitions: 2 }]);
    const subscribe = (groupId: string, handler: (m: ReceivedMessage) => void) =>
      bus.subscribe({
        groupId,
        topics: [TOPIC],
        fromBeginning: true,
        maxAttempts: 2,
        backoff: { initialDelayMs: 5, maxDelayMs: 10 },
        handler: async (m) => handler(m),
      });
    handles.push(
      await subscribe('memory', (m) => {
        if (memoryDown) throw new ModelUnavailableError('the extraction model is down');
        memoryHandled.push(m);
      }),
      await subscribe('router', (m) => void routerHandled.push(m)),
    );
  });

  afterAll(async () => {
    for (const h of handles) await h.stop();
    await bus?.close();
    await events?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  const runCli = async (steps: Step[]) => {
    const cli = spawnTs(CHILD, [busFile, eventsFile, JSON.stringify(steps)]);
    await cli.waitFor((m) => m.done === true || m.failed !== undefined, 'the steps done', 60_000);
    await cli.exited;
    const failed = cli.messages.find((m) => m.failed !== undefined);
    if (failed) throw new Error(String(failed.failed));
    return new Map(cli.messages.filter((m) => typeof m.step === 'string').map((m) => [m.step as string, m]));
  };
  const endTotal = async () => (await bus.endOffsets(TOPIC)).reduce((n, o) => n + (o.offset ?? 0), 0);
  const committed = async (groupId: string) =>
    (await bus.committedOffsets(groupId, TOPIC)).reduce((n, o) => n + (o.offset ?? 0), 0);
  const operatorActions = () => events.readAll({ filter: { streamPrefixes: ['operator-'] } });

  it('lists the memory group’s dead letter, refuses bad input, then redrives it to that group alone, once', async () => {
    const taskStream = `task-${randomUUID()}`;
    await events.append(
      taskStream,
      [
        {
          eventId: randomUUID(),
          type: 'ChecklistItemChanged',
          data: { itemId: 'item-1', status: 'done' },
          metadata: { correlationId: 'c-1', causationId: null, workspaceId: 'ws1', actor: { kind: 'agent' } },
        },
      ],
      'no_stream',
    );
    const [envelope] = (await events.readStream(taskStream)) as EventEnvelope[];
    await bus.publish(TOPIC, [toRelayedMessage(envelope)]);
    await waitFor(
      async () => routerHandled.length === 1 && (await bus.readDeadLetters('memory')).length === 1,
      'the router handled it and memory dead-lettered it',
      15_000,
    );
    const [letter] = await bus.readDeadLetters('memory');
    const id = formatDeadLetterId({
      kind: 'bus',
      groupId: 'memory',
      topic: TOPIC,
      partition: letter.message.partition,
      offset: letter.message.offset,
    });
    memoryDown = false;

    // Bad input first: every refusal typed, and nothing published or recorded.
    const refusals = await runCli([
      { step: 'person lists', kind: 'list', caller: 'person' },
      { step: 'no confirm', kind: 'redrive', caller: 'operator', request: { ids: [id], confirm: false } },
      { step: 'person redrives', kind: 'redrive', caller: 'person', request: { ids: [id], confirm: true } },
      {
        step: 'unknown id',
        kind: 'redrive',
        caller: 'operator',
        request: { ids: [`bus:memory:${TOPIC}:0:999`], confirm: true },
      },
      { step: 'malformed id', kind: 'redrive', caller: 'operator', request: { ids: ['memory-1'], confirm: true } },
      { step: 'unknown group', kind: 'redrive', caller: 'operator', request: { group: 'memroy', confirm: true } },
      {
        step: 'webhook with a group',
        kind: 'redrive',
        caller: 'operator',
        request: { source: 'webhook', group: 'memory', confirm: true },
      },
      { step: 'no selection', kind: 'redrive', caller: 'operator', request: { confirm: true } },
      { step: 'list', kind: 'list', caller: 'operator' },
    ]);
    const refusedCode = (step: string) => refusals.get(step)?.refused as { code: string; badInput: boolean };
    expect(
      [
        'person lists',
        'no confirm',
        'person redrives',
        'unknown id',
        'malformed id',
        'unknown group',
        'webhook with a group',
        'no selection',
      ].map((step) => [step, refusedCode(step)]),
    ).toEqual([
      ['person lists', { code: 'OPERATOR_REQUIRED', badInput: true }],
      ['no confirm', { code: 'CONFIRMATION_REQUIRED', badInput: true }],
      ['person redrives', { code: 'OPERATOR_REQUIRED', badInput: true }],
      ['unknown id', { code: 'NOT_FOUND', badInput: true }],
      ['malformed id', { code: 'NOT_FOUND', badInput: true }],
      ['unknown group', { code: 'NOT_FOUND', badInput: true }],
      ['webhook with a group', { code: 'BAD_INPUT', badInput: true }],
      ['no selection', { code: 'BAD_INPUT', badInput: true }],
    ]);
    const [row] = refusals.get('list')?.rows as DeadLetterRow[];
    expect(refusals.get('list')?.rows).toHaveLength(1);
    expect(row).toEqual({
      source: 'memory',
      id,
      group: 'memory',
      webhookId: null,
      topic: TOPIC,
      workspaceId: 'ws1',
      eventType: 'ChecklistItemChanged',
      eventId: envelope.metadata.eventId,
      streamId: taskStream,
      error: { code: 'MODEL_UNAVAILABLE', message: 'the extraction model is down' },
      attempts: 2,
      deadLetteredAt: letter.deadLetteredAt,
      redriven: false,
      status: 'open',
      redrivable: true,
    });
    expect(await endTotal()).toBe(1);
    expect(await operatorActions()).toEqual([]);

    // The redrive, then the same id again, and the group again (nothing open left in it).
    const runs = await runCli([
      { step: 'redrive', kind: 'redrive', caller: 'operator', request: { ids: [id], confirm: true } },
      { step: 'again', kind: 'redrive', caller: 'operator', request: { ids: [id], confirm: true } },
      { step: 'group', kind: 'redrive', caller: 'operator', request: { group: 'memory', confirm: true } },
      { step: 'list', kind: 'list', caller: 'operator' },
    ]);
    const result = runs.get('redrive')?.result as RedriveResult;
    expect([result.redriven, result.failed, result.actionIds.length]).toEqual([[{ id, source: 'memory' }], [], 1]);
    expect(runs.get('again')?.refused).toEqual({ code: 'ALREADY_REDRIVEN', badInput: true });
    expect(runs.get('group')?.result).toEqual({ redriven: [], failed: [], actionIds: [] });
    expect((runs.get('list')?.rows as DeadLetterRow[]).map((r) => [r.id, r.redriven, r.status, r.redrivable])).toEqual([
      [id, true, 'redriven', false],
    ]);

    // This process's memory group handles the copy, now succeeding; the router passes over it.
    await waitFor(
      async () => memoryHandled.length === 1 && (await committed('router')) === 2 && (await committed('memory')) === 2,
      'memory handled the copy and both groups committed past it',
      15_000,
    );
    expect(memoryHandled[0].headers[REDRIVE_OF_HEADER]).toBe(id);
    expect(memoryHandled[0].value).toEqual(letter.message.value);
    expect(routerHandled).toHaveLength(1);
    expect(await endTotal()).toBe(2);
    expect(await bus.readDeadLetters('memory')).toHaveLength(1);

    const actions = await operatorActions();
    expect(actions.map((e) => [e.metadata.streamId, e.type])).toEqual([['operator-ops', 'OperatorActionRecorded']]);
    expect(actions[0].data).toMatchObject({
      actionId: result.actionIds[0],
      action: 'bus_dead_letters_redriven',
      operator: { userId: 'sam', tokenId: 'token-operator' },
      via: { tool: 'cli', command: 'dlq redrive' },
      outcome: 'completed',
      details: { group: 'memory', source: 'memory', ids: [id], failed: [] },
    });
  }, 120_000);
});

describe('webhook dead letters listed and redriven by an operator', () => {
  const fixture = notifierWithReceiver({ settings: { maxAttempts: 2, requestTimeoutMs: 300 } });
  const operator: Caller = {
    tokenId: 'token-op',
    tokenName: 'ops',
    workspaceId: 'ops',
    userId: 'sam',
    kind: 'operator',
  };
  const person: Caller = { ...operator, tokenId: 'token-p', workspaceId: 'ws_hook', userId: 'pat', kind: 'person' };

  it('shows the failed delivery with its workspace, requests its redelivery through the store the notifier polls, and records it', async () => {
    const { notifier, receiver } = fixture;
    const { webhook } = await notifier.service.register('ws_hook', { url: receiver.url, eventTypes: ['task'] });
    receiver.respondWith(() => 503);
    const stream = new TaskStream(notifier.events, 'ws_hook');
    await stream.append();
    await eventually(
      async () => (await notifier.service.deadLetters('ws_hook', webhook.id)).items.length === 1,
      'a webhook dead letter',
    );

    // The CLI's own WebhookService on the notifier's file: the engine learns of requests by polling.
    const documents = new SqliteDocumentStore({ filename: path.join(notifier.dir, 'notifier.sqlite') });
    const bus = InProcessEventBus.open({ filename: ':memory:' });
    try {
      const webhooks = new WebhookService({
        documents,
        events: notifier.events,
        clock: systemClock,
        ids: { uuid: () => randomUUID() },
        settings: testSettings,
        logger: silentLogger,
        secretBox: notifier.secretBox,
        resolver: notifier.resolver,
      });
      const sources = { events: notifier.events, bus, webhooks };
      const deps = { clock: systemClock, ids: { uuid: () => randomUUID() } };
      const [listed] = await listDeadLetters(sources, operator, { source: 'webhook' });
      expect(listed).toMatchObject({
        source: 'webhook',
        webhookId: webhook.id,
        workspaceId: 'ws_hook',
        streamId: stream.id,
        eventType: 'ChecklistItemChanged',
        error: { code: 'WEBHOOK_DELIVERY_FAILED', message: 'HTTP 503' },
        attempts: 2,
        redriven: false,
        status: 'open',
        redrivable: true,
      });
      expect(listed.id).toMatch(/^webhook:/);

      await expect(listDeadLetters(sources, person)).rejects.toBeInstanceOf(OperatorRoleRequiredError);
      await expect(
        redriveDeadLetters(sources, operator, { source: 'webhook', confirm: false }, deps),
      ).rejects.toBeInstanceOf(ConfirmationRequiredError);
      expect((await listDeadLetters(sources, operator))[0].status).toBe('open');

      receiver.respondWith(() => 200);
      const result = await redriveDeadLetters(sources, operator, { source: 'webhook', confirm: true }, deps);
      expect([result.redriven, result.failed]).toEqual([[{ id: listed.id, source: 'webhook' }], []]);
      await eventually(
        async () => (await listDeadLetters(sources, operator))[0].status === 'redelivered',
        'the notifier redelivered it',
      );
      expect(receiver.accepted).toHaveLength(1);
      expect((await listDeadLetters(sources, operator))[0]).toMatchObject({ redriven: true, redrivable: false });
      await expect(
        redriveDeadLetters(sources, operator, { ids: [listed.id], confirm: true }, deps),
      ).rejects.toBeInstanceOf(DeadLetterAlreadyRedrivenError);

      const actions = await notifier.events.readAll({ filter: { streamPrefixes: ['operator-'] } });
      expect(actions.map((e) => e.data)).toEqual([
        expect.objectContaining({
          action: 'webhook_dead_letters_redriven',
          targetWorkspaceId: 'ws_hook',
          outcome: 'completed',
          details: { webhookIds: [webhook.id], ids: [listed.id], failed: [] },
        }),
      ]);
    } finally {
      await bus.close();
      await documents.close();
    }
  }, 60_000);
});
