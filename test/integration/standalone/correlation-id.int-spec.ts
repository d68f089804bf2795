import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_BUS, RelayHeaders, type EventBus, type ReceivedMessage } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { loadConfig } from '@lomo/config';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { createLogger, LOGGER, type Logger } from '@lomo/observability';
import { withMessageTraceContext } from '@lomo/platform';
import { MemoryLogDestination } from '@lomo/testing';
import { ReceiveUserMessage, type ReceiveUserMessageResult } from '@lomo/application';
import { StandaloneModule } from '../../../apps/standalone/src/standalone.module';

describe('correlation id: from a command to its events, the relayed messages and the log lines', () => {
  let dir: string;
  let app: INestApplicationContext;
  const logs = new MemoryLogDestination();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-corr-'));
    // Without media tools: the offline model answers the poster request in one turn (with them it
    // orders an image and waits on its quote; test/integration/generation follows that path).
    const config = loadConfig({ LOMO_DATA_DIR: dir, LOG_LEVEL: 'debug', NODE_ENV: 'test', LOMO_GENERATION: 'off' });
    app = await NestFactory.createApplicationContext(
      StandaloneModule.register(config, { logger: createLogger({ level: 'debug', destination: logs }) }),
      { logger: false },
    );
    await app.init();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a command’s correlation id reaches every event it causes, the messages relayed from them, and the log lines about them', async () => {
    const bus = app.get<EventBus>(EVENT_BUS);
    const store = app.get<EventStore>(EVENT_STORE);
    const logger = app.get<Logger>(LOGGER);
    const received: ReceivedMessage[] = [];
    const consumer = await bus.subscribe({
      groupId: 'correlation-probe',
      topics: ['lomo.events.main'],
      fromBeginning: true,
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      // A downstream handler: what it logs must carry the command's correlation id too.
      handler: withMessageTraceContext(async (message) => {
        received.push(message);
        logger.info({ eventId: message.headers[RelayHeaders.eventId] }, 'probe consumed a relayed event');
      }),
    });

    const commands = app.get(CommandBus);
    const first = await commands.execute<ReceiveUserMessage, ReceiveUserMessageResult>(
      new ReceiveUserMessage(
        'ws1',
        'u1',
        'Make a poster',
        'en',
        'ui',
        { correlationId: 'corr-poster-1', causationId: null },
        'client-1',
      ),
    );
    // The router reacts to each message: the decision, the task and the delivery it writes are
    // caused by the command too, so they carry its correlation id.
    const causedBy = async (correlationId: string) =>
      (await store.readAll()).filter((e) => e.metadata.correlationId === correlationId);
    await waitFor(
      async () => (await causedBy('corr-poster-1')).some((e) => e.type === 'TurnClosed'),
      'the first message’s turn to close',
      10_000,
    );
    // Sent once the first turn has closed: a message delivered while a turn runs is claimed by that
    // turn's next step (and so carries on under the first message's trace), not a turn of its own.
    const second = await commands.execute<ReceiveUserMessage, ReceiveUserMessageResult>(
      new ReceiveUserMessage('ws1', 'u1', 'Make it blue', 'en', 'ui', {
        correlationId: 'corr-poster-2',
        causationId: null,
      }),
    );

    await waitFor(
      async () => (await causedBy('corr-poster-2')).some((e) => e.type === 'TurnClosed'),
      'the second message’s turn to close',
      10_000,
    );
    for (const [messageId, correlationId] of [
      [first.messageId, 'corr-poster-1'],
      [second.messageId, 'corr-poster-2'],
    ]) {
      const caused = await causedBy(correlationId);
      // A message sent with the client's own id first takes its receipt (libs/domain/src/main-line/
      // message-receipt.ts); both carry the trace. Then the router's writes, then the runtime's (the
      // wake-up carries the trace on to the executor).
      const own = caused.filter((e) => e.type !== 'MessageReceiptReserved');
      expect(caused.filter((e) => e.type === 'MessageReceiptReserved').length).toBe(
        messageId === first.messageId ? 1 : 0,
      );
      // The first message starts the poster task; the follow-up is routed to that same task.
      const routed =
        messageId === first.messageId
          ? ['UserMessageReceived', 'RoutingDecided', 'TaskCreated', 'MessageDeliveredToInbox']
          : ['UserMessageReceived', 'RoutingDecided', 'MessageDeliveredToInbox'];
      expect(own.map((e) => e.type).slice(0, routed.length)).toEqual(routed);
      expect(own.map((e) => e.type)).toEqual(
        expect.arrayContaining(['TurnOpened', 'TurnStarted', 'ModelStepCommitted']),
      );
      expect(own[0].metadata.eventId).toBe(messageId);
      // The router's writes name the message's event as their cause.
      for (const e of own.slice(1, routed.length)) expect(e.metadata.causationId).toBe(messageId);
    }

    await waitFor(() => received.length >= 4, 'the main-stream events relayed', 10_000);
    await consumer.stop();
    for (const message of received) {
      const meta = message.value.metadata as { correlationId: string; eventId: string };
      expect(message.headers[RelayHeaders.correlationId]).toBe(meta.correlationId);
    }
    const byEvent = new Map(received.map((m) => [m.headers[RelayHeaders.eventId], m]));
    expect(byEvent.get(first.messageId)?.headers[RelayHeaders.correlationId]).toBe('corr-poster-1');
    expect(byEvent.get(second.messageId)?.headers[RelayHeaders.correlationId]).toBe('corr-poster-2');

    // Log lines about each message: the command handler's, the router's and the probe consumer's.
    for (const [messageId, correlationId] of [
      [first.messageId, 'corr-poster-1'],
      [second.messageId, 'corr-poster-2'],
    ]) {
      const lines = logs.lines.filter((l) => l.messageId === messageId || l.eventId === messageId);
      expect(lines.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['user message received', 'message routed', 'probe consumed a relayed event']),
      );
      for (const line of lines) expect(line.correlationId).toBe(correlationId);
    }
    const consumed = logs.lines.find((l) => l.eventId === first.messageId);
    expect(consumed?.causationId).toBe(first.messageId);
  });

  it('a retried command with the same clientMessageId writes nothing new', async () => {
    const commands = app.get(CommandBus);
    const retry = await commands.execute<ReceiveUserMessage, ReceiveUserMessageResult>(
      new ReceiveUserMessage(
        'ws1',
        'u1',
        'Make a poster',
        'en',
        'ui',
        { correlationId: 'corr-poster-1b', causationId: null },
        'client-1',
      ),
    );
    expect(retry.created).toBe(false);
    const store = app.get<EventStore>(EVENT_STORE);
    expect((await store.readStream(retry.streamId)).filter((e) => e.metadata.eventId === retry.messageId)).toHaveLength(
      1,
    );
  });
});
