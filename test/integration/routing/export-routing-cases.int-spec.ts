import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { handleCommand } from '@lomo/command-handling';
import { streams, type Actor } from '@lomo/contracts';
import {
  mainLineDecider,
  mainLineEventTypes,
  taskDecider,
  taskEventTypes,
  type MainLineCommand,
  type TaskCommand,
} from '@lomo/domain';
import { SqliteEventStore } from '@lomo/eventstore';
import { routingCase } from '../../../bench/eval-routing/routing-cases';
import { exportRoutingCases } from '../../../scripts/export-routing-cases';

const ROOT = path.join(__dirname, '../../..');
const WS = 'ws1';
const USER = 'u1';
const person: Actor = { kind: 'user', userId: USER };
const router: Actor = { kind: 'system', component: 'router' };
const ids = { uuid: () => randomUUID() };
const meta = (actor: Actor) => ({ correlationId: 'corr-export', causationId: null, workspaceId: WS, actor });

describe('export:routing-cases: corrections in an embedded store become labelled cases', () => {
  let dir: string;
  let store: SqliteEventStore;
  const onTask = (taskId: string, commands: TaskCommand[], actor: Actor = router) =>
    handleCommand(store, streams.task(taskId), taskDecider, () => commands, {
      eventTypes: taskEventTypes,
      metadata: meta(actor),
      ids,
    });
  const onMain = (command: MainLineCommand, actor: Actor = person) =>
    handleCommand(store, streams.main(WS, USER), mainLineDecider, command, {
      eventTypes: mainLineEventTypes,
      metadata: meta(actor),
      ids,
    });
  const say = (messageId: string, text: string, language = 'en') =>
    onMain({ type: 'ReceiveMessage', messageId, userId: USER, text, language, channel: 'ui' });
  const routed = (messageId: string, taskId: string, text: string) =>
    onMain(
      { type: 'RecordRoutingDecision', messageId, outcome: 'existing', taskId, method: 'semantic', candidates: [] },
      router,
    ).then(() => onTask(taskId, [{ type: 'DeliverMessage', itemId: messageId, text, language: 'en' }]));
  const created = async (taskId: string, originMessageId: string, goal: string, summary?: string) => {
    await say(originMessageId, goal);
    await onTask(taskId, [
      { type: 'CreateTask', taskId, kind: 'persistent', goal, language: 'en', originMessageId },
      ...(summary ? [{ type: 'UpdateTaskSummary' as const, summary, by: router }] : []),
    ]);
  };

  const [poster, posts, again] = [randomUUID(), randomUUID(), randomUUID()];
  const [moved, duplicate, asked, answer, closed] = [
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
  ];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-export-cases-'));
    store = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite') });
    // Given two tasks of a spring fair, then three corrections of the router by the person.
    await created(poster, randomUUID(), 'Poster for the spring fair', 'Two drafts in green.');
    await created(posts, randomUUID(), 'Spring fair social posts');
    await say(moved, 'make the captions punchier');
    await routed(moved, poster, 'make the captions punchier');
    await onTask(poster, [{ type: 'MoveMessageOut', itemId: moved, toTaskId: posts, by: USER }], person);

    await created(again, duplicate, 'A poster for the spring fair, please');
    await onTask(again, [{ type: 'MergeInto', targetTaskId: poster, by: USER }], person);

    const cardId = randomUUID();
    await say(asked, 'shorter, please');
    await onMain(
      {
        type: 'RecordRoutingDecision',
        messageId: asked,
        outcome: 'clarify',
        taskId: null,
        method: 'semantic',
        candidates: [],
        effects: {
          clarification: {
            cardId,
            question: 'Which work is this for?',
            options: [
              { optionId: 'task-1', label: '1. Poster for the spring fair', action: 'route', taskId: poster },
              { optionId: 'task-2', label: '2. Spring fair social posts', action: 'route', taskId: posts },
              { optionId: 'new', label: 'Start a new one', action: 'new' },
            ],
            reason: 'ambiguous',
            language: 'en',
          },
        },
      },
      router,
    );
    await onMain({
      type: 'ReceiveMessage',
      messageId: answer,
      userId: USER,
      text: '2. Spring fair social posts',
      language: 'en',
      channel: 'card',
      answersCardId: cardId,
    });
    await onMain(
      {
        type: 'RecordRoutingDecision',
        messageId: answer,
        outcome: 'existing',
        taskId: posts,
        method: 'deterministic',
        candidates: [],
        answersCardId: cardId,
        effects: { answer: { cardId, optionId: 'task-2', by: USER } },
      },
      router,
    );
    // And a task that is archived afterwards: the cases keep the status it had at the time.
    await onTask(posts, [{ type: 'CompleteTask' }, { type: 'ArchiveTask', by: person }], person);
    await say(closed, 'unrelated small talk');
  });

  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const task = (key: string, goal: string, summary: string) => ({
    key,
    goal,
    summary,
    kind: 'persistent',
    status: 'active',
    minutes: 0,
  });

  it('a moved message, a merged duplicate and an answered card each become a semantic case with the tasks of the time', async () => {
    const { cases, skipped } = exportRoutingCases(await store.readAll());

    expect(skipped).toEqual([]);
    const byText = Object.fromEntries(cases.map((c) => [c.text, c]));
    expect(Object.keys(byText).sort()).toEqual([
      'A poster for the spring fair, please',
      'make the captions punchier',
      'shorter, please',
    ]);
    const both = [
      task('t1', 'Poster for the spring fair', 'Two drafts in green.'),
      task('t2', 'Spring fair social posts', 'Spring fair social posts'),
    ];
    expect(byText['make the captions punchier']).toMatchObject({
      class: 'semantic',
      language: 'en',
      tasks: both,
      expected: { outcome: 'existing', task: 't2' },
    });
    expect(byText['A poster for the spring fair, please']).toMatchObject({
      tasks: both,
      expected: { outcome: 'existing', task: 't1' },
    });
    // The merged duplicate was archived by then; the posts task was still active (archived later).
    const merged = { ...task('t3', 'A poster for the spring fair, please', 'A poster for the spring fair, please') };
    expect(byText['shorter, please']).toMatchObject({
      tasks: [...both, { ...merged, status: 'archived' }],
      expected: { outcome: 'existing', task: 't2' },
    });
    for (const c of cases) expect(routingCase.safeParse(c).success).toBe(true);
  });

  it('the script reads the store under --data-dir and writes the same cases to --out', async () => {
    const out = path.join(dir, 'cases.json');
    await store.close();
    execFileSync(
      process.execPath,
      ['-r', './scripts/register.cjs', 'scripts/export-routing-cases.ts', '--data-dir', dir, '--out', out],
      { cwd: ROOT, stdio: 'pipe' },
    );
    store = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite') });

    const written = JSON.parse(readFileSync(out, 'utf8')) as { group: string; cases: unknown[] };
    expect(written.group).toBe('corrections');
    expect(written.cases).toEqual(exportRoutingCases(await store.readAll()).cases);
  });
});
