import { createKafkaEventBus, InProcessEventBus, type EventBus } from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import type { Logger } from '@lomo/observability';

/** The bus adapter the configuration names; both pass the same contract suite. */
export function createBus(config: LomoConfig, logger: Logger): EventBus {
  const busLogger = logger.child({ component: 'bus' });
  switch (config.LOMO_BUS) {
    case 'in-process':
      return InProcessEventBus.open({ filename: config.LOMO_BUS_PATH, logger: busLogger });
    case 'kafka':
      return createKafkaEventBus({
        brokers: (config.KAFKA_BROKERS ?? '').split(','),
        clientId: config.KAFKA_CLIENT_ID,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        logger: busLogger,
        consumer: {
          sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
          heartbeatIntervalMs: config.KAFKA_HEARTBEAT_INTERVAL_MS,
        },
      });
    default: {
      const unknownBus: never = config.LOMO_BUS;
      throw new Error(`Unknown bus ${String(unknownBus)}`);
    }
  }
}
