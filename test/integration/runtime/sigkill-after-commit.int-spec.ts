import { join } from 'node:path';
import { makeCallId, streams } from '@lomo/contracts';
import { RuntimeHarness } from '@lomo/runtime/testing';
import { spawnTsChild } from '../eventstore/fixtures/ts-child';
import { ofType, turnIdsOf, typesOf } from './support/turn-events';

const CHILD = join(__dirname, 'fixtures/runtime-worker.child.ts');
const T0 = '2026-11-30T00:00:00.000Z';
const AFTER_LEASE = '2026-11-30T00:00:31.000Z';

describe('an executor process killed with SIGKILL after ModelStepCommitted', () => {
  let harness: RuntimeHarness;
  beforeEach(async () => (harness = await RuntimeHarness.open({ label: 'sigkill' })));
  afterEach(async () => harness.close());

  it('is not re-inferred after restart, and the tool’s effect happens exactly once', async () => {
    const { note } = await harness.notes.create({
      workspaceId: 'ws_runtime',
      taskId: 'seed',
      title: 'journal',
      body: 'start',
      idempotencyKey: 'seed-journal',
      at: harness.clock.now(),
    });
    const { taskId } = await harness.createTask('add a line to my journal');

    const crashed = spawnTsChild(CHILD, [harness.dir, 'crash', taskId, note.noteId, T0]);
    expect((await crashed.exited).signal).toBe('SIGKILL');
    const [turnId] = await turnIdsOf(harness, taskId);
    expect(typesOf(await harness.read(streams.turn(turnId)))).toEqual([
      'TurnStarted',
      'TurnLeased',
      'ModelStepCommitted',
    ]);

    const restarted = spawnTsChild(CHILD, [harness.dir, 'resume', taskId, note.noteId, AFTER_LEASE]);
    const status = await restarted.exited;
    expect(status.code).toBe(0);
    const report = JSON.parse(restarted.lines.find((l) => l.includes('"done"'))!) as { calls: { step: number }[] };
    expect(report.calls.map((c) => c.step)).toEqual([2]);

    const callId = makeCallId(turnId, 1, 0);
    const turn = await harness.read(streams.turn(turnId));
    expect(typesOf(turn).at(-1)).toBe('TurnCompleted');
    expect(ofType<{ generation: number }>(turn, 'TurnLeased').map((l) => l.generation)).toEqual([1, 2]);
    expect(ofType<{ step: number }>(turn, 'ModelStepCommitted').map((s) => s.step)).toEqual([1, 2]);
    expect(ofType(turn, 'ToolCallStarted')).toEqual([
      { callId, tool: 'notes.append_line', idempotencyKey: callId, attempt: 1 },
    ]);
    expect((await harness.notes.effects({ idempotencyKey: callId })).map((e) => e.outcome)).toEqual(['applied']);
    expect((await harness.notes.get('ws_runtime', note.noteId))?.body).toBe('start\nexactly once');
  });
});
