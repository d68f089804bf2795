import { createHash, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalJson, streams, type EventEnvelope } from '@lomo/contracts';
import { ScriptedModelProvider } from '@lomo/llm';
import { applyExclusion, findExclusion } from '@lomo/memory';
import { recordScenario, type RecordedScenario } from '@lomo/operator/testing';
import { HARNESS_USER } from '@lomo/runtime/testing';
import { jsonLines, runLomo, snapshotDirectory, type LomoRun } from './support/run-lomo';

// Issue 20, item 3's must-show: `lomo task fork` leaves the original streams byte-identical (a
// hash of every stream that existed before the fork, before and after), records the lineage, and
// the fork's tools do nothing until `lomo task arm`. The source is a task the real runtime recorded
// (worker, context assembler, starter tools on SQLite, a scripted model); the CLI runs as the
// operator runs it, its own process on the same data directory.

/** Every stream of the store, hashed over the canonical JSON of each of its events. */
async function streamHashes(scenario: RecordedScenario): Promise<Map<string, string>> {
  const byStream = new Map<string, string[]>();
  for (const e of await scenario.harness.store.readAll())
    byStream.set(e.metadata.streamId, [...(byStream.get(e.metadata.streamId) ?? []), canonicalJson(e)]);
  return new Map([...byStream].map(([id, lines]) => [id, createHash('sha256').update(lines.join('\n')).digest('hex')]));
}

async function operatorToken(dir: string, user = 'sam', kind: 'operator' | 'person' = 'operator'): Promise<string> {
  const workspace = kind === 'operator' ? 'ops' : 'ws_runtime';
  const run = await runLomo(['tokens', 'create', '--workspace', workspace, '--user', user, '--kind', kind], {
    LOMO_DATA_DIR: dir,
    LOMO_MODE: 'embedded',
  });
  if (run.code !== 0) throw new Error(`tokens create failed: ${run.stderr}`);
  return (JSON.parse(run.stdout.trim()) as { token: string }).token;
}

const dataOf = <T>(events: readonly EventEnvelope[], type: string): T[] =>
  events.filter((e) => e.type === type).map((e) => e.data as T);

describe('lomo task fork and lomo task arm (issue 20)', () => {
  let scenario: RecordedScenario;
  let token: string;
  const env = () => ({ LOMO_DATA_DIR: scenario.harness.dir, LOMO_MODE: 'embedded' });
  let before: Map<string, string>;
  let fork: { forkTaskId: string; sourceRevision: number; sourcePosition: string; actionId: string };

  beforeAll(async () => {
    scenario = await recordScenario('task-fork');
    token = await operatorToken(scenario.harness.dir);
    before = await streamHashes(scenario);
    // At step 1 of the first turn: the model had just asked for notes.create, which had not run yet.
    const run = await runLomo(
      ['--json', '--token', token, 'task', 'fork', scenario.taskId, '--at', `${scenario.turns[0]}:1`, '--confirm'],
      env(),
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    fork = jsonLines<typeof fork>(run.stdout)[0];
  }, 120_000);
  afterAll(async () => scenario?.close());

  it('leaves the original streams byte-identical', async () => {
    const after = await streamHashes(scenario);
    for (const [streamId, hash] of before) expect({ streamId, hash: after.get(streamId) }).toEqual({ streamId, hash });
    // Only new streams were written: the fork's task, its copies of the turns, the operator's record.
    const added = [...after.keys()].filter((id) => !before.has(id)).sort();
    const forkEvents = await scenario.harness.read(streams.task(fork.forkTaskId));
    const forkTurns = dataOf<{ turns: Array<{ forkTurnId: string }> }>(forkEvents, 'ForkedFrom')[0].turns;
    expect(added).toEqual(
      [
        streams.task(fork.forkTaskId),
        ...forkTurns.map((t) => streams.turn(t.forkTurnId)),
        streams.operator('ops'),
      ].sort(),
    );
  });

  it('records the lineage', async () => {
    const { harness, taskId, turns } = scenario;
    const source = await harness.read(streams.task(taskId));
    const forkEvents = await harness.read(streams.task(fork.forkTaskId));
    const [lineage] = dataOf<Record<string, unknown>>(forkEvents, 'ForkedFrom');
    expect(lineage).toMatchObject({
      sourceTaskId: taskId,
      sourceRevision: fork.sourceRevision,
      sourcePosition: fork.sourcePosition,
      atStep: { turnId: turns[0], step: 1 },
      turns: [{ sourceTurnId: turns[0], forkTurnId: expect.not.stringMatching(turns[0]) as unknown }],
      by: 'sam',
    });
    // The fork starts as the source stood: its events up to the revision, each caused by its source event.
    const copies = forkEvents.slice(0, fork.sourceRevision + 1);
    expect(copies.map((e) => e.metadata.causationId)).toEqual(
      source.slice(0, fork.sourceRevision + 1).map((e) => e.metadata.eventId),
    );
    expect(copies.map((e) => e.type)).toEqual(source.slice(0, fork.sourceRevision + 1).map((e) => e.type));
    expect(dataOf<{ taskId: string }>(copies, 'TaskCreated')[0].taskId).toBe(fork.forkTaskId);
    // The turn running at that step is cancelled in the fork (and runs on in the source).
    const forkTurnId = (lineage.turns as Array<{ forkTurnId: string }>)[0].forkTurnId;
    const forkTurn = await harness.read(streams.turn(forkTurnId));
    expect(forkTurn.map((e) => e.type)).toEqual(['TurnStarted', 'TurnLeased', 'ModelStepCommitted', 'TurnCancelled']);
    expect(forkEvents.at(-1)).toMatchObject({ type: 'TurnClosed', data: { turnId: forkTurnId, outcome: 'cancelled' } });
    // A fork is an operator action recorded as an event.
    const actions = await harness.read(streams.operator('ops'));
    expect(actions.map((e) => e.data)).toContainEqual(
      expect.objectContaining({
        actionId: fork.actionId,
        action: 'task_forked',
        targetWorkspaceId: 'ws_runtime',
        details: expect.objectContaining({ sourceTaskId: taskId, forkTaskId: fork.forkTaskId }) as unknown,
      }),
    );
  });

  it("the fork's tools do nothing until armed", async () => {
    const { harness } = scenario;
    const create = harness.tools.get('notes.create')!;
    const run = jest.spyOn(create, 'run');
    const notesBefore = await harness.notes.list('ws_runtime', { limit: 100 });
    const wake = async (title: string) => {
      const model = new ScriptedModelProvider([
        { label: 'call', reply: { text: 'Creating it.', toolCalls: [{ name: 'notes.create', arguments: { title } }] } },
        { label: 'answer', reply: { text: 'Done.', toolCalls: [] } },
      ]);
      const worker = harness.worker(`worker-${title}`, model);
      await harness.deliver(fork.forkTaskId, `Make a note called ${title}`, HARNESS_USER);
      await worker.worker.wake({ taskId: fork.forkTaskId, reason: 'message' });
      model.assertAllConsumed();
      const opened = dataOf<{ turnId: string }>(await harness.read(streams.task(fork.forkTaskId)), 'TurnOpened');
      return harness.read(streams.turn(opened.at(-1)!.turnId));
    };

    // Woken with a message, the fork's model asks for notes.create: the call is answered as stubbed.
    const stubbedTurn = await wake('forked');
    expect(run).not.toHaveBeenCalled();
    expect(dataOf(stubbedTurn, 'ToolCallStarted')).toEqual([]);
    expect(dataOf(stubbedTurn, 'ToolCallCompleted')).toEqual([
      expect.objectContaining({ status: 'error', error: expect.objectContaining({ code: 'TOOL_STUBBED_IN_FORK' }) }),
    ]);
    expect(await harness.notes.list('ws_runtime', { limit: 100 })).toEqual(notesBefore);

    // The operator arms notes.create; the same kind of call now runs.
    const armed = await runLomo(
      ['--json', '--token', token, 'task', 'arm', fork.forkTaskId, '--tools', 'notes.create', '--confirm'],
      env(),
    );
    expect({ code: armed.code, stderr: armed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(jsonLines(armed.stdout)[0]).toMatchObject({ armed: ['notes.create'], nowArmed: ['notes.create'] });
    const armedTurn = await wake('forked-armed');
    expect(run).toHaveBeenCalledTimes(1);
    expect(dataOf(armedTurn, 'ToolCallCompleted')).toEqual([expect.objectContaining({ status: 'ok' })]);
    const titles = (await harness.notes.list('ws_runtime', { limit: 100 })).map((n) => n.title);
    expect(titles).toContain('forked-armed');
    expect(titles).not.toContain('forked');
    // Arming is an operator action too; the original's streams are still as they were.
    const actions = (await harness.read(streams.operator('ops'))).map((e) => e.data as { action: string });
    expect(actions.map((a) => a.action)).toEqual(['task_forked', 'fork_tools_armed']);
    const after = await streamHashes(scenario);
    for (const [streamId, hash] of before)
      if (streamId !== streams.operator('ops')) expect(after.get(streamId)).toBe(hash);
  }, 60_000);
});

describe('lomo task fork and arm refuse bad input with exit code 2 and change nothing', () => {
  let scenario: RecordedScenario;
  let dir: string;
  let operator: string;
  let person: string;

  beforeAll(async () => {
    scenario = await recordScenario('task-fork-refusals');
    operator = await operatorToken(scenario.harness.dir);
    person = await operatorToken(scenario.harness.dir, 'pat', 'person');
    // A stopped data directory, as an operator finds it: a copy of the recorded one, its SQLite
    // files settled by a first read (the last connection to close folds the WAL into the file).
    dir = mkdtempSync(join(tmpdir(), 'lomo-fork-refusals-'));
    cpSync(scenario.harness.dir, dir, { recursive: true });
    await scenario.close();
    const settle = await runLomo(['--token', operator, 'task', 'inspect', scenario.taskId], {
      LOMO_DATA_DIR: dir,
      LOMO_MODE: 'embedded',
    });
    expect(settle.code).toBe(0);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const refused = async (args: string[], message: RegExp): Promise<LomoRun> => {
    const snapshot = snapshotDirectory(dir);
    const run = await runLomo(args, { LOMO_DATA_DIR: dir, LOMO_MODE: 'embedded' });
    expect({ args, code: run.code }).toEqual({ args, code: 2 });
    expect(run.stderr).toMatch(message);
    expect(snapshotDirectory(dir)).toEqual(snapshot);
    return run;
  };

  it('an unknown task, a position beyond the task, a step never committed, a malformed --at', async () => {
    const { taskId, turns } = scenario;
    const unknown = '00000000-0000-4000-8000-000000000000';
    await refused(
      ['--token', operator, 'task', 'fork', unknown, '--at', '1', '--confirm'],
      /does not exist \(NOT_FOUND\)/,
    );
    await refused(['--token', operator, 'task', 'fork', taskId, '--at', '100000', '--confirm'], /POSITION_BEYOND_TASK/);
    await refused(
      ['--token', operator, 'task', 'fork', taskId, '--at', `${turns[0]}:9`, '--confirm'],
      /STEP_BEYOND_TURN/,
    );
    await refused(['--token', operator, 'task', 'fork', taskId, '--at', `${unknown}:1`, '--confirm'], /NOT_FOUND/);
    await refused(['--token', operator, 'task', 'fork', taskId, '--at', 'yesterday', '--confirm'], /BAD_POSITION/);
    await refused(['--token', operator, 'task', 'fork', taskId, '--confirm'], /required option '--at/);
  }, 120_000);

  it("a person's token, a missing --confirm", async () => {
    const { taskId } = scenario;
    await refused(['--token', person, 'task', 'fork', taskId, '--at', '1', '--confirm'], /needs an operator token/);
    await refused(['--token', operator, 'task', 'fork', taskId, '--at', '1'], /--confirm \(CONFIRMATION_REQUIRED\)/);
    await refused(['--token', person, 'task', 'arm', taskId, '--tools', 'all', '--confirm'], /needs an operator token/);
    await refused(['--token', operator, 'task', 'arm', taskId, '--tools', 'all'], /CONFIRMATION_REQUIRED/);
  }, 120_000);

  it('arming a task that is no fork, or a tool that does not exist', async () => {
    const { taskId } = scenario;
    await refused(['--token', operator, 'task', 'arm', taskId, '--tools', 'all', '--confirm'], /NOT_A_FORK/);
    await refused(['--token', operator, 'task', 'arm', taskId, '--tools', 'notes.smash', '--confirm'], /UNKNOWN_TOOL/);
    await refused(['--token', operator, 'task', 'arm', taskId, '--tools', ',', '--confirm'], /BAD_INPUT/);
  }, 120_000);
});

describe('a fork cut before a forgetting keeps the forgotten content out of its prompts (issue 20, item 4)', () => {
  let scenario: RecordedScenario;
  let token: string;
  const FORGOTTEN = 'post office';

  beforeAll(async () => {
    scenario = await recordScenario('task-fork-forgotten');
    token = await operatorToken(scenario.harness.dir);
  }, 120_000);
  afterAll(async () => scenario?.close());

  it('the exclusions written after the cut are carried into the fork, and the woken fork sends none of the forgotten text to the model', async () => {
    const { harness, taskId, turns } = scenario;
    const source = await harness.read(streams.task(taskId));
    const forgotten = dataOf<{ messageId: string; text: string }>(source, 'MessageDeliveredToInbox').find((m) =>
      m.text.includes(FORGOTTEN),
    )!;
    // Given the person forgot their second message, excluded by the memory cascade's own functions
    // (by provenance: the message and the steps of the turn that consumed it).
    const forgettingId = randomUUID();
    const exclusion = await findExclusion(
      harness.store,
      taskId,
      new Set([forgotten.messageId]),
      new Set(),
      forgettingId,
    );
    expect(exclusion?.steps.map((s) => s.turnId)).toContain(turns[1]);
    await applyExclusion(harness, exclusion!, forgettingId, {
      correlationId: forgettingId,
      causationId: null,
      workspaceId: 'ws_runtime',
      actor: { kind: 'system', component: 'memory' },
    });

    // When an operator forks the task at the step that consumed that message (before the forgetting)
    const run = await runLomo(
      ['--json', '--token', token, 'task', 'fork', taskId, '--at', `${turns[1]}:1`, '--confirm'],
      { LOMO_DATA_DIR: harness.dir, LOMO_MODE: 'embedded' },
    );
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const { forkTaskId } = jsonLines<{ forkTaskId: string }>(run.stdout)[0];

    // Then the fork holds the copied message, and the forgetting's exclusion too, on its own turn ids
    const forkEvents = await harness.read(streams.task(forkTaskId));
    expect(dataOf<{ text: string }>(forkEvents, 'MessageDeliveredToInbox').map((m) => m.text)).toContain(
      forgotten.text,
    );
    const [lineage] = dataOf<{ turns: Array<{ sourceTurnId: string; forkTurnId: string }> }>(forkEvents, 'ForkedFrom');
    const forkTurn = lineage.turns.find((t) => t.sourceTurnId === turns[1])!.forkTurnId;
    expect(dataOf(forkEvents, 'ContextExcluded')).toEqual([
      { forgettingId, messageIds: [forgotten.messageId], steps: [{ turnId: forkTurn, step: 1 }] },
    ]);

    // And woken by a new message, the fork's model is sent no byte of the forgotten text
    const sent: string[] = [];
    const model = new ScriptedModelProvider([
      {
        label: 'answer',
        reply: (request) => {
          sent.push(JSON.stringify(request));
          return { text: 'You have a note called groceries.', toolCalls: [] };
        },
      },
    ]);
    const worker = harness.worker('worker-forgotten', model);
    await harness.deliver(forkTaskId, 'Which notes do we have?', HARNESS_USER);
    await worker.worker.wake({ taskId: forkTaskId, reason: 'message' });
    model.assertAllConsumed();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('Which notes do we have?');
    expect(sent[0]).not.toContain(FORGOTTEN);
  }, 60_000);
});
