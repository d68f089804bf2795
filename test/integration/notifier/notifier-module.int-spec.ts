import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, SECRETS_KEY_FILE } from '@lomo/config';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { createLogger, silentLogger } from '@lomo/observability';
import { MemoryLogDestination } from '@lomo/testing';
import {
  DELIVERY_ENGINE,
  SIGNATURE_HEADER,
  verifyWebhookSignature,
  WebhookService,
  type DeliveryEngine,
} from '@lomo/webhooks';
import { NotifierAppModule } from '../../../apps/notifier/src/notifier-app.module';
import { TaskStream } from './support/events';
import { eventually } from './support/notifier-harness';
import { header, TestReceiver } from './support/test-receiver';

describe('NotifierAppModule: the WebhookService and the delivery engine in a Nest app', () => {
  let dir: string;
  let app: INestApplicationContext;
  let receiver: TestReceiver;
  let registered: { webhookId: string; secret: string } | undefined;
  const logs = new MemoryLogDestination();

  const startApp = async () => {
    const config = loadConfig({ LOMO_DATA_DIR: dir, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
    app = await NestFactory.createApplicationContext(
      NotifierAppModule.register(config, {
        logger: createLogger({ level: 'trace', destination: logs }),
        notifier: { settings: { pollIntervalMs: 20, reconcileIntervalMs: 50 } },
      }),
      { logger: false },
    );
    await app.init();
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-notifier-app-'));
    receiver = await TestReceiver.start();
    await startApp();
  });

  afterAll(async () => {
    await app.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers through the exported WebhookService and delivers a signed event appended to the platform store', async () => {
    const service = app.get(WebhookService);
    const { webhook, secret } = await service.register('ws_app', { url: receiver.url, eventTypes: ['task'] });
    await new TaskStream(app.get<EventStore>(EVENT_STORE), 'ws_app').append();

    await eventually(() => receiver.accepted.length === 1, 'the delivery');
    const [delivery] = receiver.accepted;
    expect(verifyWebhookSignature(header(delivery, SIGNATURE_HEADER), delivery.rawBody, [secret]).valid).toBe(true);
    expect(app.get<DeliveryEngine>(DELIVERY_ENGINE).activeWebhookIds()).toEqual([webhook.id]);
    registered = { webhookId: webhook.id, secret };
  });

  it('keeps the key it generated (no LOMO_SECRETS_KEY outside production), so a restart still signs', async () => {
    expect(registered).toBeDefined();
    expect(statSync(path.join(dir, SECRETS_KEY_FILE)).mode & 0o777).toBe(0o600);
    await app.close();
    await startApp();
    await new TaskStream(app.get<EventStore>(EVENT_STORE), 'ws_app').append();
    await eventually(() => receiver.accepted.length === 2, 'a delivery after the restart');
    const delivery = receiver.accepted[1];
    expect(
      verifyWebhookSignature(header(delivery, SIGNATURE_HEADER), delivery.rawBody, [registered!.secret]).valid,
    ).toBe(true);

    // Where the key came from is logged, by its id; neither the key nor a secret ever is.
    const keyLines = logs.lines.filter((l) => l.keySource === 'file');
    expect(keyLines.map((l) => [l.level, l.keyId, l.msg])).toEqual([
      ['warn', expect.stringMatching(/^[0-9a-f]{8}$/), expect.stringMatching(/^generated a key/)],
      ['info', keyLines[0].keyId, 'webhook secrets encrypted at rest'],
    ]);
    const logged = JSON.stringify(logs.lines);
    const key = readFileSync(path.join(dir, SECRETS_KEY_FILE), 'utf8').trim();
    expect(logged).not.toContain(registered!.secret);
    expect(logged).not.toContain(key);
    expect(logged).not.toContain(Buffer.from(key, 'base64').toString('base64url'));
  });

  it('does not start in production without LOMO_SECRETS_KEY', () => {
    const production = loadConfig({ LOMO_DATA_DIR: dir, LOG_LEVEL: 'silent', NODE_ENV: 'production' });
    expect(() => NotifierAppModule.register(production, { logger: silentLogger })).toThrow(
      /LOMO_SECRETS_KEY: required when NODE_ENV=production/,
    );
  });
});
