import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EVENT_BUS, type EventBus, type ReceivedMessage } from '@lomo/bus';
import { waitFor } from '@lomo/bus/testing';
import { loadConfig } from '@lomo/config';
import { streams, type NewEvent } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { METRICS, silentLogger, type Metrics } from '@lomo/observability';
import type { HealthCheck } from '@lomo/platform';
import {
  CHANGES_TOPIC,
  mainLineProjection,
  physicalCollection,
  PROJECTION_RUNNER,
  PROJECTOR_HEALTH_CHECK,
  READ_MODEL_CONSISTENCY,
  READ_MODELS,
  type ProjectionRunner,
  type ReadModelConsistency,
  type ReadModels,
} from '@lomo/read-models';
import { PROJECTOR_GROUP } from '@lomo/application';
import { ProjectorAppModule } from '../../../apps/projector/src/projector-app.module';

const messageId = '9a9a9a9a-0000-4000-8000-000000000001';
const taskId = '9b9b9b9b-0000-4000-8000-000000000001';
const metadata = {
  correlationId: 'module-test',
  causationId: null,
  workspaceId: 'ws1',
  actor: { kind: 'user' as const, userId: 'u1' },
};

describe('ProjectorModule: bus feed, change notices, consistency, metrics and health in a Nest app', () => {
  let dir: string;
  let app: INestApplicationContext;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-projector-'));
    const config = loadConfig({ LOMO_DATA_DIR: dir, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
    app = await NestFactory.createApplicationContext(
      // A sweep far in the future: whatever reaches the read models here came through the bus.
      ProjectorAppModule.register(config, { logger: silentLogger, projector: { settings: { sweepMs: 600_000 } } }),
      { logger: false },
    );
    await app.init();
    // Every projection's first build (and the sweep that ends it) is done before the tests append:
    // lag is measured at a sweep, and a first build still running would sweep mid-test.
    await app.get<ProjectionRunner>(PROJECTION_RUNNER).ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('relayed events reach the read models through consumer group "projector", and each change is announced on lomo.changes', async () => {
    const bus = app.get<EventBus>(EVENT_BUS);
    const notices: ReceivedMessage[] = [];
    const probe = await bus.subscribe({
      groupId: 'changes-probe',
      topics: [CHANGES_TOPIC],
      fromBeginning: true,
      maxAttempts: 1,
      backoff: { initialDelayMs: 1, maxDelayMs: 1 },
      handler: async (message) => void notices.push(message),
    });
    const events: NewEvent[] = [
      {
        eventId: messageId,
        type: 'UserMessageReceived',
        data: { messageId, userId: 'u1', text: 'Paint a lighthouse', language: 'en', channel: 'api' },
        metadata,
      },
      {
        eventId: '9c9c9c9c-0000-4000-8000-000000000001',
        type: 'RoutingDecided',
        data: { messageId, outcome: 'new', taskId, method: 'semantic', candidates: [] },
        metadata: { ...metadata, actor: { kind: 'system', component: 'router' } },
      },
    ];
    const appended = await app.get<EventStore>(EVENT_STORE).append(streams.main('ws1', 'u1'), events, 'no_stream');

    const consistency = app.get<ReadModelConsistency>(READ_MODEL_CONSISTENCY);
    await consistency.waitFor([{ streamId: appended.streamId, revision: appended.nextExpectedRevision }], {
      timeoutMs: 10_000,
      workspaceId: 'ws1',
    });
    const reads = app.get<ReadModels>(READ_MODELS);
    expect(await reads.getMessage('ws1', messageId)).toMatchObject({
      text: 'Paint a lighthouse',
      channel: 'api',
      routing: { outcome: 'new', taskId, method: 'semantic' },
    });
    expect(await reads.getMessage('ws2', messageId)).toBeUndefined();

    await waitFor(
      () => notices.some((n) => (n.value.streams as Record<string, number>)[streams.main('ws1', 'u1')] === 1),
      'the change notice of the routed message',
      10_000,
    );
    // The message's own notice (the new task's card item on the line has its own, keyed by the task).
    const last = notices.filter((n) => n.value.documentId === messageId).at(-1) as ReceivedMessage;
    expect(last.key).toBe(messageId);
    expect(last.value).toEqual({
      projection: 'main_line',
      collection: physicalCollection(mainLineProjection),
      documentId: messageId,
      workspaceId: 'ws1',
      streams: { [streams.main('ws1', 'u1')]: 1 },
    });
    await probe.stop();
    expect(await bus.readDeadLetters(PROJECTOR_GROUP)).toEqual([]);
  });

  it('exposes lag and liveness per projection on /metrics and a health check object', async () => {
    const text = await app.get<Metrics>(METRICS).render();
    for (const projection of ['main_line', 'tasks', 'inbox_items', 'turns', 'routing_index']) {
      expect(text).toContain(`lomo_projection_live{projection="${projection}"} 1`);
      expect(text).toContain(`lomo_projection_lag_events{projection="${projection}"} 0`);
      expect(text).toContain(`lomo_projection_lag_seconds{projection="${projection}"} 0`);
    }
    expect(text).toMatch(/lomo_projection_events_applied_total\{projection="main_line"\} [1-9]/);
    const health = await app.get<HealthCheck>(PROJECTOR_HEALTH_CHECK).check();
    expect(health).toMatchObject({
      projections: [
        { name: 'main_line', state: 'live', collection: physicalCollection(mainLineProjection) },
        { name: 'tasks', state: 'live' },
        { name: 'inbox_items', state: 'live' },
        { name: 'turns', state: 'live' },
        { name: 'routing_index', state: 'live' },
        { name: 'workspace_artifact_versions', state: 'live' },
        { name: 'workspace_task_artifacts', state: 'live' },
        { name: 'workspace_artifacts', state: 'live' },
        { name: 'workspace_notices', state: 'live' },
        { name: 'generation_jobs', state: 'live' },
        { name: 'accounts', state: 'live' },
        { name: 'account_ledger', state: 'live' },
        { name: 'memories', state: 'live' },
      ],
    });
  });
});
