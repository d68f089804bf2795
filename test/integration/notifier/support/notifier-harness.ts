import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from '@lomo/bus/testing';
import { systemClock, type Clock } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { silentLogger } from '@lomo/observability';
import { SqliteDocumentStore } from '@lomo/read-models';
import {
  DeliveryEngine,
  HttpWebhookTransport,
  SecretBox,
  WebhookService,
  type NotifierSettings,
  type WebhookTransport,
} from '@lomo/webhooks';
import { FakeHostResolver } from '@lomo/webhooks/testing';
import { TestReceiver } from './test-receiver';

/** Small and fast: 3 attempts a few ms apart, short polls. */
export const testSettings: NotifierSettings = {
  mongodbUrl: undefined,
  mongodbDatabase: 'lomo',
  sqlitePath: ':unused:',
  production: false,
  httpAllowlist: [],
  maxAttempts: 3,
  backoff: { initialDelayMs: 5, maxDelayMs: 20, jitter: 1 },
  requestTimeoutMs: 2_000,
  streamsInFlight: 4,
  batchSize: 50,
  pollIntervalMs: 20,
  reconcileIntervalMs: 20,
  leaseMs: 10_000,
  secretGraceSeconds: 3_600,
  maxWebhooksPerWorkspace: 20,
  disableOnGone: true,
};

export interface NotifierHarness {
  /** The directory of the store files (events.sqlite, notifier.sqlite). */
  dir: string;
  events: SqliteEventStore;
  documents: SqliteDocumentStore;
  /** Seals the stored secrets (a random key per harness). */
  secretBox: SecretBox;
  /** What webhook hosts resolve to, for the service and every engine: tests never use real DNS. */
  resolver: FakeHostResolver;
  service: WebhookService;
  engine: DeliveryEngine;
  /** Stops the engine and starts a new one on the same files: a process restart. */
  restartEngine(): Promise<DeliveryEngine>;
  /** A second engine on the same files, as another notifier instance. */
  startEngine(): Promise<DeliveryEngine>;
  close(): Promise<void>;
}

export interface NotifierOptions {
  settings?: Partial<NotifierSettings>;
  clock?: Clock;
  transport?: WebhookTransport;
  secretBox?: SecretBox;
  resolver?: FakeHostResolver;
}

export async function startNotifier(options: NotifierOptions = {}): Promise<NotifierHarness> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lomo-notifier-'));
  const settings = { ...testSettings, ...options.settings };
  const clock = options.clock ?? systemClock;
  const secretBox = options.secretBox ?? new SecretBox(randomBytes(32));
  const resolver = options.resolver ?? new FakeHostResolver();
  const events = new SqliteEventStore({ filename: path.join(dir, 'events.sqlite'), pollIntervalMs: 10 });
  const documents = new SqliteDocumentStore({ filename: path.join(dir, 'notifier.sqlite') });
  const engines: DeliveryEngine[] = [];
  const startEngine = async () => {
    const engine = new DeliveryEngine({
      events,
      documents,
      transport: options.transport ?? new HttpWebhookTransport(),
      clock,
      logger: silentLogger,
      metrics: { count: () => undefined },
      settings,
      secretBox,
      resolver,
      owner: randomUUID(),
      reconcileIntervalMs: settings.reconcileIntervalMs,
    });
    await engine.start();
    engines.push(engine);
    return engine;
  };
  let engine = await startEngine();
  const service = new WebhookService({
    documents,
    events,
    clock,
    ids: { uuid: () => randomUUID() },
    settings,
    logger: silentLogger,
    secretBox,
    resolver,
    onChange: () => engines.forEach((e) => e.nudge()),
  });
  const harness: NotifierHarness = {
    dir,
    events,
    documents,
    secretBox,
    resolver,
    service,
    get engine() {
      return engine;
    },
    async restartEngine() {
      await engine.stop();
      engines.splice(engines.indexOf(engine), 1);
      engine = await startEngine();
      return engine;
    },
    startEngine,
    async close() {
      await Promise.all(engines.map((e) => e.stop()));
      await events.close();
      await documents.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * A notifier and one webhook receiver (answering 200 until told otherwise) for the enclosing
 * describe block: new ones for each test, or with `per: 'all'` one pair for all its tests; closed
 * after. Read them inside a test (or a hook after this one): `const { notifier, receiver } = fixture;`.
 */
export function notifierWithReceiver(
  options: NotifierOptions = {},
  per: 'each' | 'all' = 'each',
): { readonly notifier: NotifierHarness; readonly receiver: TestReceiver } {
  const fixture = {} as { notifier: NotifierHarness; receiver: TestReceiver };
  const [before, after] = per === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    fixture.notifier = await startNotifier(options);
    fixture.receiver = await TestReceiver.start();
  });
  after(async () => {
    await fixture.notifier.close();
    await fixture.receiver.close();
  });
  return fixture;
}

/** Waits until `condition` holds (5 s by default), failing with `what`. */
export const eventually = (condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000) =>
  waitFor(condition, what, timeoutMs, 5);

/** Lets the engine run for a while, to show that something does not happen. */
export const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));
