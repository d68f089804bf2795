import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, type Logger } from '@lomo/observability';
import type { DocumentStore } from '@lomo/read-models';
import type { DeliveryEngine } from './delivery/delivery-engine';
import { notifierIndexes } from './webhooks/webhook-documents';
import { DELIVERY_ENGINE, NOTIFIER_DOCUMENTS } from './notifier-tokens';

/**
 * Starts the engine once the platform's store is open, and stops it in onModuleDestroy, before
 * the platform closes the event store: requests in flight finish (bounded by their timeout) and
 * their outcome is saved.
 */
@Injectable()
export class NotifierLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(DELIVERY_ENGINE) private readonly engine: DeliveryEngine | null,
    @Inject(NOTIFIER_DOCUMENTS) private readonly documents: DocumentStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.engine !== null) return this.engine.start();
    // The API process serves the WebhookService without an engine; its queries need the indexes.
    for (const [collection, indexes] of notifierIndexes) await this.documents.ensureIndexes(collection, indexes);
  }

  async onModuleDestroy(): Promise<void> {
    await this.engine?.stop();
    await this.documents.close();
    this.logger.info({ component: 'notifier' }, 'notifier stopped');
  }
}
