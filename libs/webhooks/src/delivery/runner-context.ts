import type { Clock } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import type { DocumentStore } from '@lomo/read-models';
import type { NotifierSettings } from '../notifier-settings';
import type { EventSelection } from '../webhooks/event-selection';
import type { HostResolver } from '../webhooks/host-resolver.port';
import type { SecretBox } from '../webhooks/secret-box';
import type { WebhookDocument } from '../webhooks/webhook-documents';
import type { DeliveryMetrics } from './delivery-metrics';
import type { WebhookTransport } from './http-transport';
import type { StreamStates } from './stream-states';

export type DeliverySettings = Pick<
  NotifierSettings,
  | 'maxAttempts'
  | 'backoff'
  | 'requestTimeoutMs'
  | 'streamsInFlight'
  | 'batchSize'
  | 'pollIntervalMs'
  | 'leaseMs'
  | 'disableOnGone'
  | 'production'
  | 'httpAllowlist'
>;

/** What the engine gives every webhook runner. */
export interface RunnerDeps {
  events: EventStore;
  documents: DocumentStore;
  transport: WebhookTransport;
  clock: Clock;
  logger: Logger;
  metrics: DeliveryMetrics;
  settings: DeliverySettings;
  /** Opens the stored signing secrets (and seals plain ones the runner writes back). */
  secretBox: SecretBox;
  /** Resolves the webhook's host before every attempt, to vet the addresses (webhook-target.ts). */
  resolver: HostResolver;
  /** This engine instance, in leases. */
  owner: string;
  /** Jitter source; tests may fix it. */
  random?: () => number;
}

/** What a stream turn sees of its runner. */
export interface StreamTurnContext {
  readonly deps: RunnerDeps;
  readonly selection: EventSelection;
  readonly states: StreamStates;
  readonly log: Logger;
  isStopping(): boolean;
  /**
   * The registration as stored now, or undefined once it is no longer active. Read per attempt so
   * that a rotation or a deletion applies to the very next request, not after a reconcile.
   */
  freshWebhook(): Promise<WebhookDocument | undefined>;
  /** 410 Gone: the receiver says the endpoint is gone for good. */
  disable(reason: string): Promise<void>;
}
