import type { EventBus } from '@lomo/bus';
import type { EventStore } from '@lomo/eventstore';
import type { WebhookService } from '@lomo/webhooks';

/**
 * Where dead letters are kept and where their redrive is recorded. Every piece is shared storage
 * (the bus log or broker, the notifier's documents, the event store), so the CLI's process sees
 * and redrives what the apps' processes dead-lettered.
 */
export interface DeadLetterSources {
  /** Reads the operator streams (what was redriven) and appends the operator's actions. */
  events: Pick<EventStore, 'readAll' | 'append'>;
  bus: Pick<EventBus, 'readDeadLetters' | 'publish'>;
  /** The notifier's webhook service; absent: webhook dead letters are left out. */
  webhooks?: Pick<WebhookService, 'deadLettersOfEveryWorkspace' | 'redeliver'>;
}
