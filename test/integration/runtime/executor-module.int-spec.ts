import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { loadConfig } from '@lomo/config';
import { streams, type NewEvent } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { ScriptedModelProvider } from '@lomo/llm';
import { createLogger, METRICS, type Metrics } from '@lomo/observability';
import { publishWakeUp, type InterruptResult } from '@lomo/runtime';
import { MemoryLogDestination } from '@lomo/testing';
import { ExecutorAppModule } from '../../../apps/executor/src/executor-app.module';
import { StopTask } from '@lomo/application';
import { metricValue } from './support/metric-value';
import { typesOf } from './support/turn-events';

const meta = {
  correlationId: 'exec-test',
  causationId: null,
  workspaceId: 'ws_app',
  actor: { kind: 'user' as const, userId: 'u1' },
};

/** What the router leaves behind: the task created with its first message in the inbox. */
async function routedMessage(store: EventStore, text: string): Promise<string> {
  const taskId = randomUUID();
  const itemId = randomUUID();
  const events: NewEvent[] = [
    {
      eventId: randomUUID(),
      type: 'TaskCreated',
      data: { taskId, kind: 'persistent', goal: text, language: 'en', originMessageId: itemId },
      metadata: meta,
    },
    {
      eventId: randomUUID(),
      type: 'MessageDeliveredToInbox',
      data: { itemId, messageId: itemId, text, language: 'en' },
      metadata: meta,
    },
  ];
  await store.append(streams.task(taskId), events, 'no_stream');
  return taskId;
}

describe('ExecutorModule in a Nest application', () => {
  let dir: string;
  let app: INestApplicationContext;
  const model = new ScriptedModelProvider([
    { label: 'greet', reply: { text: 'Hello from the executor.' } },
    { label: 'long', hangUntilAborted: true },
  ]);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-executor-'));
    const config = loadConfig({
      LOMO_DATA_DIR: dir,
      LOG_LEVEL: 'debug',
      NODE_ENV: 'test',
      LOMO_SQLITE_SYNCHRONOUS: 'NORMAL',
    });
    const logger = createLogger({ level: 'debug', destination: new MemoryLogDestination() });
    app = await NestFactory.createApplicationContext(
      ExecutorAppModule.register(config, { logger, executor: { model } }),
      {
        logger: false,
      },
    );
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a task woken through the bus, and stops one through the StopTask command', async () => {
    const store = app.get<EventStore>(EVENT_STORE);
    const bus = app.get<EventBus>(EVENT_BUS);
    const completedTask = await routedMessage(store, 'say hello');
    await publishWakeUp(bus, { kind: 'wake', workspaceId: 'ws_app', taskId: completedTask, reason: 'message' });
    await waitFor(
      async () => typesOf(await store.readStream(streams.task(completedTask))).includes('TurnClosed'),
      'the woken task’s turn to close',
      10_000,
    );

    const stoppedTask = await routedMessage(store, 'write a saga');
    await publishWakeUp(bus, { kind: 'wake', workspaceId: 'ws_app', taskId: stoppedTask, reason: 'message' });
    await waitFor(() => model.callsFor('long').length === 1, 'the long model call', 10_000);
    const result = await app
      .get(CommandBus)
      .execute<StopTask, InterruptResult>(new StopTask(stoppedTask, { kind: 'user', userId: 'u1' }, 'enough'));
    await waitFor(() => model.callsFor('long')[0].outcome === 'aborted', 'the model call to be aborted', 10_000);

    expect(result.cancelledTurnId).toBeDefined();
    expect(typesOf(await store.readStream(streams.task(stoppedTask))).at(-1)).toBe('TaskStopped');
    const metrics = app.get<Metrics>(METRICS);
    expect(await metricValue(metrics, 'lomo_runtime_steps_total')).toBe(1);
    expect(await metrics.render()).toContain('lomo_runtime_active_turns');
  });
});
