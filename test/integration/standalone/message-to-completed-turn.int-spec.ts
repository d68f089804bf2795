import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { waitFor } from '@lomo/bus/testing';
import { loadConfig } from '@lomo/config';
import { deterministicUuid, streams } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { silentLogger } from '@lomo/observability';
import { ReceiveUserMessage, type ReceiveUserMessageResult } from '@lomo/application';
import { StandaloneModule } from '../../../apps/standalone/src/standalone.module';

// The embedded backend end to end, with the offline model: message → router → task → turn →
// tool call → reply, all through the real store, bus, relay and runtime.
describe('standalone: a message becomes a task whose turn runs a tool and completes', () => {
  let dir: string;
  let app: INestApplicationContext;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-e2e-'));
    app = await NestFactory.createApplicationContext(
      StandaloneModule.register(loadConfig({ LOMO_DATA_DIR: dir, NODE_ENV: 'test' }), { logger: silentLogger }),
      { logger: false },
    );
    await app.init();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers in the language of the message after a completed tool call', async () => {
    const store = app.get<EventStore>(EVENT_STORE);
    const sent = await app.get(CommandBus).execute<ReceiveUserMessage, ReceiveUserMessageResult>(
      new ReceiveUserMessage('ws1', 'u1', 'Prends une note : acheter du lait', 'fr', 'ui', {
        correlationId: 'e2e-1',
        causationId: null,
      }),
    );
    const taskId = deterministicUuid('lomo.task', sent.messageId);

    await waitFor(
      async () => (await store.readStream(streams.task(taskId))).some((e) => e.type === 'TurnClosed'),
      'the task’s turn to close',
      20_000,
    );
    const task = await store.readStream(streams.task(taskId));
    expect(task.find((e) => e.type === 'TaskCreated')?.data).toMatchObject({ language: 'fr', kind: 'persistent' });
    const claimed = task.find((e) => e.type === 'InboxItemsClaimed')?.data as { itemIds: string[]; turnId: string };
    expect(claimed.itemIds).toEqual([sent.messageId]);

    const turn = await store.readStream(streams.turn(claimed.turnId));
    const types = turn.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'TurnStarted',
        'TurnLeased',
        'ModelStepCommitted',
        'ToolCallStarted',
        'ToolCallCompleted',
      ]),
    );
    expect(types.at(-1)).toBe('TurnCompleted');
    const completed = turn.find((e) => e.type === 'ToolCallCompleted')?.data as { status: string };
    expect(completed.status).toBe('ok');
    const lastReply = [...turn].reverse().find((e) => e.type === 'ModelStepCommitted')?.data as { reply: string };
    expect(lastReply.reply.length).toBeGreaterThan(0);
    // Every runtime write carries the command's correlation id.
    expect(new Set(turn.map((e) => e.metadata.correlationId))).toEqual(new Set(['e2e-1']));
  });
});
