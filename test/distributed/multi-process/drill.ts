import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@lomo/bus/testing';
import type { EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { createApiToken, gqlData } from './api-client';
import { appExists, Cluster, type AppProcess } from './cluster';
import { resetLomoTopics } from './lomo-topics';

export const KAFKA_BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
export const MONGODB_URL = process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017/';
/** Turn lease: short, so a takeover happens within seconds of a kill. */
export const LEASE_MS = 3_000;
/** Relay lease: short, so a standby takes over within seconds. */
export const RELAY_LEASE_MS = 3_000;
export const USER = 'ana';

export interface DrillOptions {
  /** Relay processes (LOMO_RELAY=on); one is active, the others stand by. */
  relays: number;
  executors: number;
  apis: number;
}

/**
 * One distributed deployment for one test file: a fresh directory (shared SQLite event store,
 * tools database, blobs and API tokens, as on one host), a fresh FerretDB database, the broker's
 * lomo.* topics reset, and every app as its own process.
 */
export class Drill {
  readonly dir = mkdtempSync(join(tmpdir(), 'lomo-drill-'));
  readonly sqlitePath = join(this.dir, 'events.sqlite');
  readonly effectLog = join(this.dir, 'effects.jsonl');
  readonly toolsPath = join(this.dir, 'tools.sqlite');
  readonly database = `drill_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  readonly env: Record<string, string>;
  readonly cluster: Cluster;
  store: SqliteEventStore | undefined;
  relays: AppProcess[] = [];
  /** Whether the relay app runs under a lease (one active, the others standing by). */
  relayLeased = false;
  executors: AppProcess[] = [];
  apis: AppProcess[] = [];

  /** `overrides` replace the drill's settings (a benchmark wants production timings). */
  constructor(overrides: Record<string, string> = {}) {
    this.env = {
      NODE_ENV: 'test',
      // DRILL_LOG_LEVEL=debug with DRILL_LOG_DIR for a post-mortem.
      LOG_LEVEL: process.env.DRILL_LOG_LEVEL ?? 'info',
      LOMO_MODE: 'distributed',
      LOMO_BUS: 'kafka',
      KAFKA_BROKERS: KAFKA_BROKERS.join(','),
      // A killed member holds its partitions until its session times out.
      KAFKA_SESSION_TIMEOUT_MS: '10000',
      KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
      LOMO_EVENTSTORE: 'sqlite',
      LOMO_DATA_DIR: this.dir,
      LOMO_SQLITE_PATH: this.sqlitePath,
      MONGODB_URL,
      MONGODB_DATABASE: this.database,
      // One host: kill-inside-tool-call.ts holds the write lock of the shared tools.sqlite to
      // catch a call in flight, so tool state stays on SQLite here (blobs on its disk too).
      LOMO_TOOLS_STORE: 'sqlite',
      LOMO_BLOB_STORE: 'filesystem',
      LOMO_RELAY: 'off',
      PORT: '0',
      LOMO_LEASE_MS: String(LEASE_MS),
      LOMO_WATCHDOG_INTERVAL_MS: '1000',
      LOMO_PROJECTOR_SWEEP_MS: '1000',
      // The drill polls the API hard; the per-token limit is not under test here.
      LOMO_API_RATE_LIMIT_BURST: '10000',
      LOMO_API_RATE_LIMIT_PER_SECOND: '10000',
      ...overrides,
    };
    this.cluster = new Cluster(this.env);
  }

  get notifierPresent(): boolean {
    return appExists('notifier');
  }

  /** Resets the broker's lomo.* topics, then starts every app, relays first. */
  async start(options: DrillOptions): Promise<void> {
    await resetLomoTopics(KAFKA_BROKERS);
    this.store = new SqliteEventStore({ filename: this.sqlitePath });
    // The store file and its schema exist before several processes race to create them.
    await this.store.headPosition();
    this.relays.push(await this.startRelay('relay-1'));
    const announced = await this.relays[0].waitForLog(
      (l) => l.msg === 'event relay starting',
      'the relay loop',
      30_000,
    );
    this.relayLeased = announced.leased === true;
    // Unleased relays would all publish: a standby only makes sense once the app holds a lease.
    for (let i = 2; i <= options.relays && this.relayLeased; i += 1)
      this.relays.push(await this.startRelay(`relay-${i}`));
    const starting: Array<Promise<AppProcess>> = [
      this.cluster.start('router', 'router'),
      this.cluster.start('projector', 'projector'),
    ];
    if (this.notifierPresent) starting.push(this.cluster.start('notifier', 'notifier'));
    for (let i = 1; i <= options.executors; i += 1) starting.push(this.startExecutor(`executor-${i}`));
    for (let i = 1; i <= options.apis; i += 1) starting.push(this.cluster.start(`api-${i}`, 'api'));
    const started = await Promise.all(starting);
    this.executors = started.filter((p) => p.app === 'executor');
    this.apis = started.filter((p) => p.app === 'api');
  }

  startRelay(name: string): Promise<AppProcess> {
    // The worker id prefixes the relay's lease holder, so the lease table names the process.
    return this.cluster.start(name, 'relay', {
      LOMO_RELAY: 'on',
      LOMO_WORKER_ID: name,
      LOMO_RELAY_LEASE_MS: String(RELAY_LEASE_MS),
    });
  }

  startExecutor(name: string): Promise<AppProcess> {
    return this.cluster.start(name, 'executor', { LOMO_WORKER_ID: name, DRILL_EFFECT_LOG: this.effectLog });
  }

  async stop(): Promise<void> {
    await this.cluster.stopAll();
    await this.store?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  async events(): Promise<EventEnvelope[]> {
    if (this.store === undefined) throw new Error('drill not started');
    return this.store.readAll();
  }

  api(index = 0): string {
    const url = this.apis[index]?.url;
    if (url === undefined) throw new Error(`no api ${index}`);
    return url;
  }

  /** A token of a workspace of its own, so scenarios in one deployment never share a task. */
  newToken(workspaceId: string): Promise<string> {
    return createApiToken(this.env, workspaceId, USER);
  }

  async send(token: string, text: string, taskId?: string, apiIndex = 0): Promise<string> {
    const data = await gqlData<{ sendMessage: { messageId: string } }>(
      this.api(apiIndex),
      token,
      'mutation($text: String!, $taskId: ID) { sendMessage(text: $text, taskId: $taskId) { messageId } }',
      { text, ...(taskId !== undefined ? { taskId } : {}) },
    );
    return data.sendMessage.messageId;
  }

  /** The task the router put the message in, as the read model shows it. */
  async routedTask(token: string, messageId: string, timeoutMs = 60_000): Promise<string> {
    let taskId: string | null | undefined;
    await waitFor(
      async () => {
        const data = await gqlData<{ message: { routing: { taskId: string | null } | null } | null }>(
          this.api(),
          token,
          'query($id: ID!) { message(id: $id) { routing { taskId } } }',
          { id: messageId },
        );
        taskId = data.message?.routing?.taskId;
        return typeof taskId === 'string';
      },
      `routing of message ${messageId}`,
      timeoutMs,
      100,
    );
    return taskId as string;
  }

  /** `<process>: <group>` for every bus consumer that crashed without kafkajs restarting it. */
  consumersGivenUp(): string[] {
    return this.cluster.history.flatMap((p) =>
      p.lines.filter((l) => l.msg === 'bus consumer crashed for good').map((l) => `${p.name}: ${String(l.groupId)}`),
    );
  }

  /** Diagnostics of every process, for a failure message. */
  diagnostics(): string {
    return this.cluster.diagnostics();
  }
}
