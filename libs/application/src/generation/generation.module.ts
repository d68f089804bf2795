import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Optional,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Provider,
} from '@nestjs/common';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import type { LomoConfig } from '@lomo/config';
import {
  CLOCK,
  ConfigError,
  ID_GENERATOR,
  systemClock,
  TEST_CONTROL,
  type Clock,
  type IdGenerator,
  type TestControl,
} from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import {
  DocumentStoreGenerationReadModel,
  GENERATION_READ_MODEL,
  GENERATION_REQUESTS,
  GenerationOrders,
  GenerationService,
  GenerationWorker,
  type GenerationHooks,
  type GenerationProvider,
  type GenerationReadModel,
  type MediaKind,
} from '@lomo/generation';
import { LOGGER, type Logger } from '@lomo/observability';
import { HealthRegistry, TEST_CONTROL_STATE, type TestControlState } from '@lomo/platform';
import {
  createDocumentStore,
  DOCUMENT_STORE,
  ProjectionAliases,
  projectorSettings,
  type DocumentStore,
} from '@lomo/read-models';
import { ARTIFACT_COMMANDS, type ArtifactCommands } from '@lomo/workspace';
import { artifactReferences } from './artifact-references';
import { GenerationCallbackController } from './generation-callback.controller';
import { generationProvidersFrom, type GenerationProviderSet } from './generation-providers';
import { GENERATION_DOCUMENTS, GENERATION_SERVICE, SIM_UPSTREAM } from './generation-tokens';
import { startSimUpstreamChild } from './sim-upstream-supervisor';
import { forwardUpstreamFaults } from './forward-upstream-faults';

export interface GenerationModuleOptions {
  /** The projector module of this process (embedded): its document store and generation read model. */
  readSide?: DynamicModule;
  /** Tests pass their own providers (e.g. the in-process simulated one); then no upstream is started. */
  providers?: { providers: GenerationProvider[]; providerFor?: (kind: MediaKind) => string };
  /** A module binding ARTIFACT_COMMANDS when no global WorkspaceModule does (tests with a fake). */
  workspace?: DynamicModule;
  /**
   * Fault points of the generation service, for crash drills only (e.g. a process killed after the
   * person approved a card and before the approval is applied). Never set in production: absent,
   * the service runs without any.
   */
  hooks?: GenerationHooks;
}

interface SimUpstreamHandle {
  url: string;
  callbackSecret: string;
  callbackUrl: string;
  stop(): Promise<void>;
}

const GENERATION_PROVIDERS = Symbol('GENERATION_PROVIDERS');
const GENERATION_WORKER = Symbol('GENERATION_WORKER');
const OWN_DOCUMENTS = Symbol('GENERATION_OWN_DOCUMENTS');

/** Where the upstream calls back: LOMO_GENERATION_PUBLIC_URL, else this process's HTTP address. */
export function callbackBaseUrl(config: LomoConfig): string {
  const base =
    config.LOMO_GENERATION_PUBLIC_URL ??
    `http://${config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
  return `${base.replace(/\/+$/, '')}/callbacks/generation`;
}

async function simUpstreamFrom(config: LomoConfig, logger: Logger): Promise<SimUpstreamHandle | null> {
  const callbackUrl = callbackBaseUrl(config);
  if (config.LOMO_SIM_UPSTREAM_URL !== undefined) {
    return {
      url: config.LOMO_SIM_UPSTREAM_URL.replace(/\/+$/, ''),
      callbackSecret: config.LOMO_GENERATION_CALLBACK_SECRET ?? '',
      callbackUrl,
      stop: async () => undefined,
    };
  }
  // Distributed with real providers: no stand-in upstream (3D and audio are then unavailable).
  if (config.LOMO_MODE === 'distributed' && config.LOMO_GENERATION_PROVIDER === 'openai') return null;
  if (config.LOMO_MODE === 'distributed')
    throw new ConfigError('Invalid configuration: LOMO_SIM_UPSTREAM_URL: required in distributed mode', [
      { variable: 'LOMO_SIM_UPSTREAM_URL', message: 'required in distributed mode (run apps/sim-upstream)' },
    ]);
  const callbackSecret = config.LOMO_GENERATION_CALLBACK_SECRET ?? randomBytes(24).toString('base64url');
  const child = await startSimUpstreamChild({
    dataDir: config.LOMO_DATA_DIR,
    callbackUrl: `${callbackUrl}/simulated`,
    callbackSecret,
    logger,
    ...(config.LOMO_TEST_CONTROL === 'on'
      ? {
          faults: {
            duplicateCallbacks: config.LOMO_TEST_FAULTS.includes('duplicate_callbacks'),
            lostCallbacks: config.LOMO_TEST_FAULTS.includes('lost_callbacks'),
          },
        }
      : {}),
  });
  return { url: child.url, callbackSecret, callbackUrl, stop: () => child.stop() };
}

@Injectable()
class GenerationLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(GENERATION_SERVICE) private readonly service: GenerationService,
    @Inject(GENERATION_WORKER) private readonly worker: GenerationWorker,
    @Inject(SIM_UPSTREAM) private readonly upstream: SimUpstreamHandle | null,
    @Inject(OWN_DOCUMENTS) private readonly ownDocuments: DocumentStore | null,
    private readonly health: HealthRegistry,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() @Inject(TEST_CONTROL_STATE) private readonly testControl: TestControlState | null = null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.health.register({
      name: 'generation',
      // Reported, not gating: the upstream's trouble is not this pod's.
      readiness: false,
      check: async () => ({ ...this.service.counters }),
    });
    // Drills only (LOMO_TEST_CONTROL=on): the upstream's callback faults follow the switches.
    if (this.testControl !== null && this.upstream !== null)
      await forwardUpstreamFaults(this.testControl, this.upstream.url, this.logger);
    const resumed = await this.service.start();
    await this.worker.start();
    this.logger.info({ component: 'generation', resumedJobs: resumed }, 'generation service started');
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker.stop();
    await this.service.stop();
    await this.upstream?.stop();
    await this.ownDocuments?.close();
  }
}

/**
 * The generation process (DESIGN.md §4 step 5) as a Nest module: the GenerationService on the
 * configured providers, its bus consumer (new orders, approvals), the sweep of unfinished jobs and
 * the callback route `POST /callbacks/generation/:provider` (kept here, not in the API: only this
 * process holds the providers' secrets and the job's queue). In embedded mode without
 * LOMO_SIM_UPSTREAM_URL it starts apps/sim-upstream as a child process. Also provides
 * GENERATION_REQUESTS for the executor's media tools (orders only; this service does the rest).
 */
@Module({})
export class GenerationModule {
  static register(config: LomoConfig, options: GenerationModuleOptions = {}): DynamicModule {
    const readSide = options.readSide;
    const documentProviders: Provider[] = readSide
      ? [
          { provide: OWN_DOCUMENTS, useValue: null },
          { provide: GENERATION_DOCUMENTS, useExisting: DOCUMENT_STORE },
        ]
      : [
          {
            provide: OWN_DOCUMENTS,
            useFactory: (logger: Logger) => createDocumentStore(projectorSettings(config), logger),
            inject: [LOGGER],
          },
          { provide: GENERATION_DOCUMENTS, useExisting: OWN_DOCUMENTS },
          {
            provide: GENERATION_READ_MODEL,
            useFactory: (documents: DocumentStore, clock: Clock) => {
              const aliases = new ProjectionAliases(documents);
              return new DocumentStoreGenerationReadModel(documents, (name) => aliases.collectionOf(name), clock);
            },
            inject: [GENERATION_DOCUMENTS, CLOCK],
          },
        ];
    return {
      module: GenerationModule,
      imports: [...(readSide ? [readSide] : []), ...(options.workspace ? [options.workspace] : [])],
      controllers: [GenerationCallbackController],
      providers: [
        ...documentProviders,
        {
          provide: SIM_UPSTREAM,
          useFactory: (logger: Logger) => (options.providers ? null : simUpstreamFrom(config, logger)),
          inject: [LOGGER],
        },
        {
          provide: GENERATION_PROVIDERS,
          useFactory: (
            upstream: SimUpstreamHandle | null,
            clock: Clock,
            logger: Logger,
            testControl?: TestControl,
          ): GenerationProviderSet => {
            if (options.providers) {
              const { providers, providerFor } = options.providers;
              return { providers, providerFor: providerFor ?? (() => providers[0].name) };
            }
            // The upstream is another party on wall-clock time (its callbacks' signed timestamps,
            // Retry-After dates): with a drill's simulated CLOCK moved, checking those against it
            // would refuse every callback. Off, CLOCK is the system clock anyway.
            const wallClock = testControl?.enabled === true ? systemClock : clock;
            return generationProvidersFrom(config, upstream, wallClock, logger.child({ component: 'generation' }));
          },
          inject: [SIM_UPSTREAM, CLOCK, LOGGER, { token: TEST_CONTROL, optional: true }],
        },
        {
          provide: GENERATION_SERVICE,
          useFactory: (
            set: GenerationProviderSet,
            store: EventStore,
            documents: DocumentStore,
            blobs: BlobStore,
            artifacts: ArtifactCommands,
            bus: EventBus,
            readModel: GenerationReadModel,
            clock: Clock,
            ids: IdGenerator,
            logger: Logger,
            testControl?: TestControl,
          ) =>
            new GenerationService({
              store,
              documents,
              blobs,
              artifacts,
              bus,
              providers: set.providers,
              providerFor: set.providerFor,
              references: artifactReferences(store, blobs),
              activeJobs: async () => (await readModel.activeJobs(1_000)).map((job) => job.jobId),
              clock,
              ids,
              ...(options.hooks !== undefined ? { hooks: options.hooks } : {}),
              // Drills' mutation switches (all off unless LOMO_TEST_CONTROL=on).
              ...(testControl !== undefined ? { testControl } : {}),
              timings: {
                silenceMs: config.LOMO_GENERATION_SILENCE_MS,
                submitTimeoutMs: config.LOMO_GENERATION_SUBMIT_TIMEOUT_MS,
                // A reservation outlives the submit timeout, so the timeout (not the expiry) ends a sent job.
                reservationTtlMs: config.LOMO_GENERATION_SUBMIT_TIMEOUT_MS + 60_000,
              },
              onError: (error, context) =>
                logger.warn(
                  {
                    component: 'generation',
                    ...context,
                    error: error instanceof Error ? error.message : String(error),
                  },
                  'generation step failed (retried by the next poll or sweep)',
                ),
            }),
          inject: [
            GENERATION_PROVIDERS,
            EVENT_STORE,
            GENERATION_DOCUMENTS,
            BLOB_STORE,
            ARTIFACT_COMMANDS,
            EVENT_BUS,
            GENERATION_READ_MODEL,
            CLOCK,
            ID_GENERATOR,
            LOGGER,
            { token: TEST_CONTROL, optional: true },
          ],
        },
        {
          provide: GENERATION_WORKER,
          useFactory: (bus: EventBus, service: GenerationService) =>
            new GenerationWorker(bus, service, {
              partitions: config.LOMO_BUS_PARTITIONS,
              maxAttempts: config.LOMO_BUS_MAX_ATTEMPTS,
            }),
          inject: [EVENT_BUS, GENERATION_SERVICE],
        },
        GenerationLifecycle,
      ],
      exports: [GENERATION_SERVICE],
    };
  }
}

/**
 * GENERATION_REQUESTS for a process whose media tools only order jobs (the executor): pricing
 * needs the providers' quote tables, nothing is sent from here. Global, so the executor's tool
 * provider finds it wherever it is registered.
 */
@Module({})
export class GenerationOrdersModule {
  static register(config: LomoConfig, options: Pick<GenerationModuleOptions, 'providers'> = {}): DynamicModule {
    return {
      module: GenerationOrdersModule,
      global: true,
      providers: [
        {
          provide: GENERATION_REQUESTS,
          useFactory: (
            store: EventStore,
            ids: IdGenerator,
            clock: Clock,
            logger: Logger,
            testControl?: TestControl,
          ) => {
            const set = options.providers
              ? {
                  providers: options.providers.providers,
                  providerFor: options.providers.providerFor ?? (() => options.providers!.providers[0].name),
                }
              : // Quotes only: the URL and secrets are never used by quote().
                generationProvidersFrom(
                  config,
                  config.LOMO_MODE === 'distributed' &&
                    config.LOMO_GENERATION_PROVIDER === 'openai' &&
                    config.LOMO_SIM_UPSTREAM_URL === undefined
                    ? null
                    : { url: 'http://sim-upstream.invalid', callbackSecret: '', callbackUrl: callbackBaseUrl(config) },
                  clock,
                  logger,
                );
            return new GenerationOrders({
              store,
              ids,
              clock,
              providers: set.providers,
              providerFor: set.providerFor,
              ...(testControl !== undefined ? { testControl } : {}),
            });
          },
          inject: [EVENT_STORE, ID_GENERATOR, CLOCK, LOGGER, { token: TEST_CONTROL, optional: true }],
        },
      ],
      exports: [GENERATION_REQUESTS],
    };
  }
}
