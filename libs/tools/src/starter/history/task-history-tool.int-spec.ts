import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeCallId, streams, type NewEvent } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { taskHistoryTool } from './task-history-tool';
import { ToolRegistry } from '../../registry/tool-registry';
import { makeToolContext, TEST_TASK_ID, TEST_TURN_ID, TEST_WORKSPACE_ID } from '../../testing/tool-context';

let nextId = 1;
const event = (type: string, data: Record<string, unknown>, workspaceId = TEST_WORKSPACE_ID): NewEvent => ({
  eventId: `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`,
  type,
  data,
  metadata: { correlationId: 'corr-1', causationId: null, workspaceId, actor: { kind: 'agent' } },
});

describe('task.history', () => {
  let dir: string;
  let store: SqliteEventStore;
  let registry: ToolRegistry;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-history-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite') });
    registry = new ToolRegistry([taskHistoryTool(store)]);
    await store.append(
      streams.task(TEST_TASK_ID),
      [
        event('TaskCreated', {
          taskId: TEST_TASK_ID,
          kind: 'persistent',
          goal: 'Plan a spring campaign shoot',
          language: 'en',
          originMessageId: '99999999-9999-4999-8999-999999999999',
        }),
        event('TurnOpened', { turnId: TEST_TURN_ID, reason: 'message' }),
      ],
      'no_stream',
    );
    await store.append(
      streams.turn(TEST_TURN_ID),
      [
        event('TurnStarted', { turnId: TEST_TURN_ID, taskId: TEST_TASK_ID, reason: 'message' }),
        event('ToolCallStarted', {
          callId: makeCallId(TEST_TURN_ID, 1, 0),
          tool: 'notes.create',
          idempotencyKey: makeCallId(TEST_TURN_ID, 1, 0),
          attempt: 1,
        }),
      ],
      'no_stream',
    );
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the task's and the current turn's events oldest first, in short form", async () => {
    const result = await registry.invoke('task.history', '{}', makeToolContext());
    expect(result).toEqual({
      status: 'ok',
      output: {
        taskId: TEST_TASK_ID,
        task: [
          expect.objectContaining({
            rev: 0,
            type: 'TaskCreated',
            goal: 'Plan a spring campaign shoot',
            kind: 'persistent',
          }),
          expect.objectContaining({ rev: 1, type: 'TurnOpened', reason: 'message' }),
        ],
        turn: {
          turnId: TEST_TURN_ID,
          events: [
            expect.objectContaining({ rev: 0, type: 'TurnStarted' }),
            expect.objectContaining({ rev: 1, type: 'ToolCallStarted', tool: 'notes.create', attempt: 1 }),
          ],
        },
      },
    });
  });

  it('returns only the most recent events when limited', async () => {
    const result = await registry.invoke('task.history', '{"limit":1}', makeToolContext());
    expect(result.status === 'ok' && result.output).toMatchObject({
      task: [{ rev: 1, type: 'TurnOpened' }],
      turn: { events: [{ rev: 1, type: 'ToolCallStarted' }] },
    });
  });

  it("shows nothing of another workspace's task", async () => {
    const result = await registry.invoke('task.history', '{}', makeToolContext({ workspaceId: 'ws_other' }));
    expect(result).toMatchObject({ status: 'ok', output: { task: [], turn: { events: [] } } });
  });

  it('refuses a limit out of range', async () => {
    const result = await registry.invoke('task.history', '{"limit":500}', makeToolContext());
    expect(result).toMatchObject({ status: 'error', error: { code: 'TOOL_INVALID_ARGUMENTS' } });
  });
});
