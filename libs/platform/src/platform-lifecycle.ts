import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, type EventBus, type EventRelay } from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, METRICS, type Logger, type Metrics } from '@lomo/observability';
import { HealthRegistry } from './health-check';
import { RELAY, RELAY_PARTS, type RelayParts } from './create-relay';

/** MongoDB clients of the GridFS blob store (none on the filesystem), closed after the bus. */
export const BLOB_CLIENTS = Symbol('BLOB_CLIENTS');

/**
 * Owns start and shutdown order: the relay starts after the store and bus are open, and on
 * SIGTERM it stops first (finishing its batch and saving its checkpoint), then the bus closes
 * its consumers (committing what they finished), then the store.
 */
@Injectable()
export class PlatformLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(RELAY) private readonly relay: EventRelay,
    @Inject(RELAY_PARTS) private readonly relayParts: RelayParts,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) private readonly metrics: Metrics,
    @Inject(LOMO_CONFIG) private readonly config: LomoConfig,
    private readonly health: HealthRegistry,
    @Inject(BLOB_CLIENTS) private readonly blobClients: { close(): Promise<void> }[],
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { store, relay } = this;
    this.health.register({
      name: 'eventStore',
      check: async () => ({ headPosition: (await store.headPosition()) ?? null }),
    });
    // Topics exist before any consumer subscribes, whether or not this process relays.
    await this.relay.ensureTopics();
    if (this.config.LOMO_RELAY === 'off') return;
    this.health.register({ name: 'relay', check: async () => ({ ...relay.stats }) });
    this.relay.start();
    this.metrics.gauge('lomo_relay_published_events', 'Events this relay instance has published to the bus', [], (g) =>
      g.set(this.relay.stats.events),
    );
    this.metrics.gauge('lomo_relay_failed_rounds', 'Relay rounds that failed and were retried', [], (g) =>
      g.set(this.relay.stats.failures),
    );
    this.logger.info({ component: 'platform' }, 'relay started');
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.logger.info({ component: 'platform' }, 'shutting down');
    await this.relay.stop();
    await this.relayParts.close();
    await this.bus.close();
    await Promise.all(this.blobClients.map((c) => c.close()));
    await this.store.close();
    this.logger.info({ component: 'platform', relay: this.relay.stats }, 'shut down cleanly');
  }
}
