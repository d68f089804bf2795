import { EventRelay, type EventBus } from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import type { EventStore } from '@lomo/eventstore';
import type { Logger, Metrics } from '@lomo/observability';

export const RELAY = Symbol('RELAY');

export function createRelay(
  config: LomoConfig,
  store: EventStore,
  bus: EventBus,
  logger: Logger,
  _metrics: Metrics,
): EventRelay {
  return new EventRelay({
    store,
    bus,
    partitions: config.LOMO_BUS_PARTITIONS,
    batchSize: config.LOMO_RELAY_BATCH_SIZE,
    logger: logger.child({ component: 'relay' }),
  });
}
