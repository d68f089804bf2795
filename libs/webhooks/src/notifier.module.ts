import { type DynamicModule, Module } from '@nestjs/common';
import { loadSecretsKey, type LomoConfig, type SecretsKey } from '@lomo/config';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, METRICS, type Logger, type Metrics } from '@lomo/observability';
import type { DocumentStore } from '@lomo/read-models';
import { createNotifierDocuments } from './create-notifier-documents';
import { DeliveryEngine } from './delivery/delivery-engine';
import { deliveryMetrics } from './delivery/delivery-metrics';
import { HttpWebhookTransport, type WebhookTransport } from './delivery/http-transport';
import { NotifierLifecycle } from './notifier-lifecycle';
import { notifierSettings, type NotifierSettings } from './notifier-settings';
import {
  DELIVERY_ENGINE,
  NOTIFIER_DOCUMENTS,
  NOTIFIER_SETTINGS,
  SECRET_BOX,
  WEBHOOK_TRANSPORT,
} from './notifier-tokens';
import { DnsHostResolver } from './webhooks/dns-host-resolver';
import { HOST_RESOLVER, type HostResolver } from './webhooks/host-resolver.port';
import { SecretBox } from './webhooks/secret-box';
import { WebhookService } from './webhooks/webhook-service';

export interface NotifierModuleOptions {
  settings?: Partial<NotifierSettings>;
  /** False in a process that only serves the WebhookService (the API in distributed mode). */
  engine?: boolean;
  /** Tests put a fault-injecting transport here. */
  transport?: WebhookTransport;
  /** Tests put a FakeHostResolver here (@lomo/webhooks/testing): no real DNS. */
  resolver?: HostResolver;
}

/**
 * Webhooks: the WebhookService (registrations, replays, secrets, dead letters) and the delivery
 * engine. Needs the platform's EVENT_STORE, LOGGER, METRICS, CLOCK and ID_GENERATOR. Exports
 * WebhookService for the API's resolvers. Signing secrets are stored encrypted under
 * LOMO_SECRETS_KEY: `register` stops the start with a ConfigError when production lacks it.
 */
@Module({})
export class NotifierModule {
  static register(config: LomoConfig, options: NotifierModuleOptions = {}): DynamicModule {
    const settings: NotifierSettings = { ...notifierSettings(config), ...options.settings };
    const withEngine = options.engine ?? true;
    // Resolved now, not in a provider: a missing production key must stop the start before anything opens.
    const secretsKey = loadSecretsKey(config);
    return {
      module: NotifierModule,
      providers: [
        { provide: NOTIFIER_SETTINGS, useValue: settings },
        {
          provide: NOTIFIER_DOCUMENTS,
          useFactory: (logger: Logger) => createNotifierDocuments(settings, logger),
          inject: [LOGGER],
        },
        { provide: WEBHOOK_TRANSPORT, useValue: options.transport ?? new HttpWebhookTransport() },
        { provide: HOST_RESOLVER, useValue: options.resolver ?? new DnsHostResolver() },
        { provide: SECRET_BOX, useFactory: (logger: Logger) => secretBox(secretsKey, logger), inject: [LOGGER] },
        {
          provide: DELIVERY_ENGINE,
          useFactory: (
            events: EventStore,
            documents: DocumentStore,
            transport: WebhookTransport,
            clock: Clock,
            ids: IdGenerator,
            logger: Logger,
            metrics: Metrics,
            box: SecretBox,
            resolver: HostResolver,
          ): DeliveryEngine | null =>
            withEngine
              ? new DeliveryEngine({
                  events,
                  documents,
                  transport,
                  clock,
                  logger,
                  metrics: deliveryMetrics(metrics),
                  settings,
                  secretBox: box,
                  resolver,
                  owner: ids.uuid(),
                  reconcileIntervalMs: settings.reconcileIntervalMs,
                })
              : null,
          inject: [
            EVENT_STORE,
            NOTIFIER_DOCUMENTS,
            WEBHOOK_TRANSPORT,
            CLOCK,
            ID_GENERATOR,
            LOGGER,
            METRICS,
            SECRET_BOX,
            HOST_RESOLVER,
          ],
        },
        {
          provide: WebhookService,
          useFactory: (
            documents: DocumentStore,
            events: EventStore,
            clock: Clock,
            ids: IdGenerator,
            logger: Logger,
            engine: DeliveryEngine | null,
            box: SecretBox,
            resolver: HostResolver,
          ) =>
            new WebhookService({
              documents,
              events,
              clock,
              ids,
              settings,
              logger,
              secretBox: box,
              resolver,
              onChange: () => engine?.nudge(),
            }),
          inject: [
            NOTIFIER_DOCUMENTS,
            EVENT_STORE,
            CLOCK,
            ID_GENERATOR,
            LOGGER,
            DELIVERY_ENGINE,
            SECRET_BOX,
            HOST_RESOLVER,
          ],
        },
        NotifierLifecycle,
      ],
      exports: [WebhookService, DELIVERY_ENGINE],
    };
  }
}

/** Says where the key came from (never the key): a generated one must be kept with the data. */
function secretBox(secretsKey: SecretsKey, logger: Logger): SecretBox {
  const box = new SecretBox(secretsKey.key);
  const fields = { component: 'notifier', keyId: box.keyId, keySource: secretsKey.source, file: secretsKey.file };
  if (secretsKey.created) {
    logger.warn(fields, 'generated a key for webhook secrets (not production): keep the file with the data directory');
  } else {
    logger.info(fields, 'webhook secrets encrypted at rest');
  }
  return box;
}
