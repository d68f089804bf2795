import type { Metrics } from '@lomo/observability';

export type DeliveryOutcomeLabel = 'delivered' | 'failed' | 'dead_lettered' | 'gone' | 'target_forbidden';

export interface DeliveryMetrics {
  count(outcome: DeliveryOutcomeLabel): void;
}

export const noDeliveryMetrics: DeliveryMetrics = { count: () => undefined };

/** Outcomes only, no webhook id label: the number of webhooks is unbounded, series must not be. */
export function deliveryMetrics(metrics: Metrics): DeliveryMetrics {
  const counter = metrics.counter('lomo_webhook_deliveries_total', 'Webhook delivery attempts by outcome', ['outcome']);
  return { count: (outcome) => counter.inc({ outcome }) };
}
