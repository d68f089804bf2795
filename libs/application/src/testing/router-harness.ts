import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EVENT_BUS, EventRelay, InProcessEventBus, type ReceivedMessage } from '@lomo/bus';
import { LOMO_CONFIG, loadConfig, type LomoConfig } from '@lomo/config';
import {
  CLOCK,
  deterministicUuid,
  ID_GENERATOR,
  systemClock,
  streams,
  TEST_CONTROL,
  testControlOff,
  WAKE_UP_TOPIC,
  type EventEnvelope,
  type NewEvent,
  type TestControl,
} from '@lomo/contracts';
import { EVENT_STORE, SqliteEventStore } from '@lomo/eventstore';
import { createLogger, LOGGER } from '@lomo/observability';
import { RouterModule, type RouterModuleOptions } from '../router/router.module';
import { subscribeWakeUps } from '@lomo/bus/testing';

export const WORKSPACE = 'ws1';
export const USER = 'u1';
export const MAIN = streams.main(WORKSPACE, USER);

/**
 * The embedded platform pieces the router needs, for tests: a SQLite event store, an in-process
 * bus, the relay between them, and a probe on the wake-up topic.
 */
export class RouterHarness {
  /** Every wake-up published on the bus since the harness opened. */
  wakeUps: readonly ReceivedMessage[] = [];
  private probe: { stop(): Promise<void> } | undefined;

  private constructor(
    readonly dir: string,
    readonly config: LomoConfig,
    readonly store: SqliteEventStore,
    readonly bus: InProcessEventBus,
    readonly relay: EventRelay,
  ) {}

  /** `now` is the event store's clock (occurredAt of every append), for tests that seed a past. */
  static async open(options: { now?: () => Date } = {}): Promise<RouterHarness> {
    const dir = mkdtempSync(path.join(tmpdir(), 'lomo-router-'));
    const config = loadConfig({ LOMO_DATA_DIR: dir, NODE_ENV: 'test', LOMO_BUS_PARTITIONS: '4' });
    const store = new SqliteEventStore({
      filename: path.join(dir, 'events.sqlite'),
      pollIntervalMs: 5,
      ...(options.now ? { now: options.now } : {}),
    });
    const bus = InProcessEventBus.open({ filename: path.join(dir, 'bus.sqlite'), pollIntervalMs: 5 });
    const relay = new EventRelay({ store, bus, partitions: config.LOMO_BUS_PARTITIONS, idleIntervalMs: 5 });
    const harness = new RouterHarness(dir, config, store, bus, relay);
    await bus.ensureTopics([{ name: WAKE_UP_TOPIC, partitions: config.LOMO_BUS_PARTITIONS }]);
    const probe = await subscribeWakeUps(bus);
    harness.probe = probe;
    harness.wakeUps = probe.messages;
    return harness;
  }

  /** The router as the standalone app would run it, on this harness's store and bus. */
  /** `testControl`: the drills' switches (test-control README); absent: all off, as in production. */
  async startRouterApp(
    options: RouterModuleOptions = {},
    testControl: TestControl = testControlOff,
  ): Promise<INestApplicationContext> {
    const { store, bus, config } = this;
    @Global()
    @Module({
      providers: [
        { provide: EVENT_STORE, useValue: store },
        { provide: EVENT_BUS, useValue: bus },
        { provide: LOMO_CONFIG, useValue: config },
        { provide: LOGGER, useValue: createLogger({ level: 'silent' }) },
        { provide: ID_GENERATOR, useValue: { uuid: () => randomUUID() } },
        { provide: CLOCK, useValue: systemClock },
        { provide: TEST_CONTROL, useValue: testControl },
      ],
      exports: [EVENT_STORE, EVENT_BUS, LOMO_CONFIG, LOGGER, ID_GENERATOR, CLOCK, TEST_CONTROL],
    })
    class TestPlatformModule {}

    @Module({ imports: [TestPlatformModule, RouterModule.register(options)] })
    class TestRouterApp {}

    const app = await NestFactory.createApplicationContext(TestRouterApp, { logger: false });
    await app.init();
    return app;
  }

  /** Appends a person's message to Main the way the API does (event id = message id). */
  async receive(
    text: string,
    options: {
      clientMessageId: string;
      language?: string;
      targetTaskId?: string;
      artifactRef?: string;
      workspaceId?: string;
      channel?: 'ui' | 'api' | 'card';
      answersCardId?: string;
    },
  ): Promise<EventEnvelope> {
    const workspaceId = options.workspaceId ?? WORKSPACE;
    const main = streams.main(workspaceId, USER);
    const messageId = deterministicUuid('lomo.message', workspaceId, USER, options.clientMessageId);
    const event: NewEvent = {
      eventId: messageId,
      type: 'UserMessageReceived',
      data: {
        messageId,
        userId: USER,
        text,
        language: options.language ?? 'en',
        channel: options.channel ?? 'ui',
        clientMessageId: options.clientMessageId,
        ...(options.targetTaskId ? { target: { taskId: options.targetTaskId } } : {}),
        ...(options.artifactRef ? { target: { artifactRef: options.artifactRef } } : {}),
        ...(options.answersCardId ? { answersCardId: options.answersCardId } : {}),
      },
      metadata: {
        correlationId: `corr-${options.clientMessageId}`,
        causationId: null,
        workspaceId,
        actor: { kind: 'user', userId: USER },
      },
    };
    await this.store.append(main, [event], 'any');
    const stored = (await this.store.readStream(main)).find((e) => e.metadata.eventId === messageId);
    if (!stored) throw new Error(`message ${messageId} was not stored`);
    return stored;
  }

  async eventsOf(streamId: string): Promise<EventEnvelope[]> {
    return this.store.readStream(streamId);
  }

  async close(): Promise<void> {
    await this.probe?.stop();
    await this.relay.stop().catch(() => undefined);
    await this.bus.close();
    await this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
