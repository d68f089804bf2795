import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@lomo/config';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { silentLogger } from '@lomo/observability';
import {
  DELIVERY_ENGINE,
  NotifierAppModule,
  SIGNATURE_HEADER,
  verifyWebhookSignature,
  WebhookService,
  type DeliveryEngine,
} from '../../../apps/notifier/src';
import { TaskStream } from './support/events';
import { eventually } from './support/notifier-harness';
import { header, TestReceiver } from './support/test-receiver';

describe('NotifierAppModule: the WebhookService and the delivery engine in a Nest app', () => {
  let dir: string;
  let app: INestApplicationContext;
  let receiver: TestReceiver;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lomo-notifier-app-'));
    receiver = await TestReceiver.start();
    const config = loadConfig({ LOMO_DATA_DIR: dir, LOG_LEVEL: 'silent', NODE_ENV: 'test' });
    app = await NestFactory.createApplicationContext(
      NotifierAppModule.register(config, {
        logger: silentLogger,
        notifier: { settings: { pollIntervalMs: 20, reconcileIntervalMs: 50 } },
      }),
      { logger: false },
    );
    await app.init();
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
  });
});
