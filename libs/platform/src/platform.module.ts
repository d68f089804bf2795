import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type DynamicModule, Module } from '@nestjs/common';
import { BLOB_STORE } from '@lomo/blobs';
import type { MongoClient } from 'mongodb';
import { EVENT_BUS } from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import { CLOCK, ID_GENERATOR, TEST_CONTROL } from '@lomo/contracts';
import { EVENT_STORE } from '@lomo/eventstore';
import { createLogger, LOGGER, METRICS, Metrics, type Logger } from '@lomo/observability';
import { HealthController } from './health.controller';
import { HealthRegistry } from './health-check';
import { createBus } from './create-bus';
import { openBlobStore, openEventStore } from './open-stores';
import { BLOB_CLIENTS, PlatformLifecycle } from './platform-lifecycle';
import { RELAY, RELAY_PARTS, createRelay, type RelayParts } from './create-relay';
import { createTestControl, TEST_CONTROL_STATE } from './test-control';

export interface PlatformOptions {
  /** Tests pass their own logger to read the lines. */
  logger?: Logger;
}

/**
 * The infrastructure every app stands on, chosen by configuration: event store, bus, relay,
 * blobs, logs, metrics, clock and ids, test control (off unless LOMO_TEST_CONTROL=on), with
 * /health and /metrics.
 */
@Module({})
export class PlatformModule {
  static forRoot(config: LomoConfig, options: PlatformOptions = {}): DynamicModule {
    mkdirSync(config.LOMO_DATA_DIR, { recursive: true });
    const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL });
    const blobClients: MongoClient[] = [];
    // Off (every production start): the system clock and no switch. On: the drills' clock and switches.
    const testControl = createTestControl(config);
    const providers = [
      { provide: LOMO_CONFIG, useValue: config },
      { provide: LOGGER, useValue: logger },
      { provide: METRICS, useValue: new Metrics() },
      { provide: CLOCK, useValue: testControl.clock },
      { provide: TEST_CONTROL, useValue: testControl.control },
      { provide: TEST_CONTROL_STATE, useValue: testControl.state },
      { provide: ID_GENERATOR, useValue: { uuid: () => randomUUID() } },
      { provide: EVENT_STORE, useFactory: () => openEventStore(config, testControl.clock) },
      { provide: EVENT_BUS, useFactory: () => createBus(config, logger) },
      {
        provide: BLOB_STORE,
        useFactory: () => {
          const { blobs, client } = openBlobStore(config, logger);
          if (client !== undefined) blobClients.push(client);
          return blobs;
        },
      },
      { provide: BLOB_CLIENTS, useValue: blobClients },
      { provide: RELAY_PARTS, useFactory: createRelay, inject: [LOMO_CONFIG, EVENT_STORE, EVENT_BUS, LOGGER] },
      { provide: RELAY, useFactory: (parts: RelayParts) => parts.relay, inject: [RELAY_PARTS] },
      HealthRegistry,
      PlatformLifecycle,
    ];
    return {
      module: PlatformModule,
      global: true,
      controllers: [HealthController],
      providers,
      exports: [
        HealthRegistry,
        LOMO_CONFIG,
        LOGGER,
        METRICS,
        CLOCK,
        TEST_CONTROL,
        TEST_CONTROL_STATE,
        ID_GENERATOR,
        EVENT_STORE,
        EVENT_BUS,
        BLOB_STORE,
        RELAY,
      ],
    };
  }
}
