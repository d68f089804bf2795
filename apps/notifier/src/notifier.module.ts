import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { CLOCK, ID_GENERATOR, type Clock, type IdGenerator } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, METRICS, type Logger, type Metrics } from '@lomo/observability';
import type { DocumentStore } from '@lomo/read-models';
import { createNotifierDocuments } from './create-notifier-documents';
import { DeliveryEngine } from './delivery/delivery-engine';
import { deliveryMetrics } from './delivery/delivery-metrics';
import { FetchWebhookTransport, type WebhookTransport } from './delivery/http-transport';
import { NotifierLifecycle } from './notifier-lifecycle';
import { notifierSettings, type NotifierSettings } from './notifier-settings';
import { DELIVERY_ENGINE, NOTIFIER_DOCUMENTS, NOTIFIER_SETTINGS, WEBHOOK_TRANSPORT } from './notifier-tokens';
import { WebhookService } from './webhooks/webhook-service';

export interface NotifierModuleOptions {
  settings?: Partial<NotifierSettings>;
  /** False in a process that only serves the WebhookService (the API in distributed mode). */
  engine?: boolean;
  /** Tests put a fault-injecting transport here. */
  transport?: WebhookTransport;
}

/**
 * Webhooks: the WebhookService (registrations, replays, secrets, dead letters) and the delivery
 * engine. Needs the platform's EVENT_STORE, LOGGER, METRICS, CLOCK and ID_GENERATOR. Exports
 * WebhookService for the API's resolvers.
 */
@Module({})
export class NotifierModule {
  static register(config: LomoConfig, options: NotifierModuleOptions = {}): DynamicModule {
    const settings: NotifierSettings = { ...notifierSettings(config), ...options.settings };
    const withEngine = options.engine ?? true;
    return {
      module: NotifierModule,
      providers: [
        { provide: NOTIFIER_SETTINGS, useValue: settings },
        {
          provide: NOTIFIER_DOCUMENTS,
          useFactory: (logger: Logger) => createNotifierDocuments(settings, logger),
          inject: [LOGGER],
        },
        { provide: WEBHOOK_TRANSPORT, useValue: options.transport ?? new FetchWebhookTransport() },
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
                  owner: ids.uuid(),
                  reconcileIntervalMs: settings.reconcileIntervalMs,
                })
              : null,
          inject: [EVENT_STORE, NOTIFIER_DOCUMENTS, WEBHOOK_TRANSPORT, CLOCK, ID_GENERATOR, LOGGER, METRICS],
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
          ) => new WebhookService({ documents, events, clock, ids, settings, logger, onChange: () => engine?.nudge() }),
          inject: [NOTIFIER_DOCUMENTS, EVENT_STORE, CLOCK, ID_GENERATOR, LOGGER, DELIVERY_ENGINE],
        },
        NotifierLifecycle,
      ],
      exports: [WebhookService, DELIVERY_ENGINE],
    };
  }
}
