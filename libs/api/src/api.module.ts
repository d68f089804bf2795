import {
  Inject,
  Module,
  RequestMethod,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLModule } from '@nestjs/graphql';
import type { LomoConfig } from '@lomo/config';
import { LOGGER, type Logger } from '@lomo/observability';
import { READ_MODEL_CONSISTENCY, READ_MODELS } from '@lomo/read-models';
import { API_IP_RATE_LIMITER, API_RATE_LIMITER, API_READ_MODELS, API_SETTINGS, API_TOKENS } from './api-di-tokens';
import { ApiLifecycle } from './api-lifecycle';
import { apiSettings, type ApiSettings } from './api-settings';
import { API_TOKEN_STORE, authSettings, openApiTokenStore, type ApiTokenStore, ApiTokens } from '@lomo/auth';
import { DevTokenBootstrap } from './auth/dev-token';
import { CONSISTENCY_GATE, ReadModelConsistencyGate, type ConsistencyCheck } from './consistency/consistency-gate';
import { ReadAfterWrite } from './consistency/read-after-write';
import { ExplorerController } from './explorer/explorer.controller';
import { InspectorController } from './inspector/inspector.controller';
import { apiResolvers } from './graphql/api-resolvers';
import { GRAPHQL_PATH, graphqlOptions } from './graphql/graphql-options';
import { graphqlBodyErrorHandler } from './http/body-error.handler';
import { GraphqlGateMiddleware } from './http/graphql-gate.middleware';
import { MediaController } from './http/media.controller';
import { TestControlController } from './test-control/test-control.controller';
import { TokenBucketRateLimiter } from './limits/token-bucket';
import { MemoryCommandsModule, MessagesModule, TaskCommandsModule } from '@lomo/application';
import { liveApiProviders } from './subscriptions/live-api.providers';
import { subscriptionSettings, type SubscriptionSettings } from './subscriptions/subscription-settings';
import { StreamOwnership } from './tenancy/stream-ownership';
import { ApiWorkspace } from './workspace/api-workspace';

export interface ApiModuleOptions {
  /**
   * The module providing READ_MODELS and READ_MODEL_CONSISTENCY: in the standalone app the very
   * ProjectorModule object it imports (Nest shares a dynamic module by reference), elsewhere
   * ApiReadSideModule.
   */
  readSide: DynamicModule;
  /** The module exporting the notifier's WebhookService (NotifierModule, with or without its engine). */
  webhooks: DynamicModule;
  settings?: Partial<ApiSettings>;
  /**
   * Tests pass their own; default: the shared token store (`openApiTokenStore`: the read-model
   * SQLite file embedded, MONGODB_URL distributed), the old token file migrated at start.
   */
  tokenStore?: ApiTokenStore;
  /**
   * A module exporting the workspace's ports (ARTIFACT_COMMANDS, ARTIFACT_READER,
   * WORKSPACE_READ_MODEL from @lomo/workspace). Without it the schema is the same, and artefact
   * operations and /media answer WORKSPACE_UNAVAILABLE.
   */
  workspace?: DynamicModule;
  /** Limits of graphql-ws subscriptions; defaults from `subscriptionSettings`. */
  subscriptions?: Partial<SubscriptionSettings>;
}

/**
 * The GraphQL API at /graphql: bearer tokens, limits, queries over the read models scoped to the
 * caller's workspace, mutations through the CQRS command handlers, subscriptions over graphql-ws
 * on the same path, the explorer at / and the operators' inspector at /inspector. Stands on PlatformModule;
 * task commands come from TaskCommandsModule (the cancel of a stop reaches the executor over the bus).
 */
@Module({})
export class ApiModule implements NestModule, OnModuleInit {
  constructor(
    @Inject(HttpAdapterHost) private readonly http: HttpAdapterHost,
    @Inject(API_SETTINGS) private readonly settings: ApiSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  static register(config: LomoConfig, options: ApiModuleOptions): DynamicModule {
    const settings: ApiSettings = { ...apiSettings(config), ...options.settings };
    const live: SubscriptionSettings = { ...subscriptionSettings(settings), ...options.subscriptions };
    return {
      module: ApiModule,
      controllers: [
        ExplorerController,
        InspectorController,
        MediaController,
        // The drills' surface: absent unless LOMO_TEST_CONTROL=on (refused in production), so 404.
        ...(config.LOMO_TEST_CONTROL === 'on' ? [TestControlController] : []),
      ],
      imports: [
        CqrsModule,
        MessagesModule,
        TaskCommandsModule,
        MemoryCommandsModule,
        // Before the read side: a workspace the caller binds (a test's fake) wins over the
        // read side's own WORKSPACE_READ_MODEL (Nest takes the first import exporting a token).
        ...(options.workspace ? [options.workspace] : []),
        options.readSide,
        options.webhooks,
        GraphQLModule.forRootAsync<ApolloDriverConfig>({
          driver: ApolloDriver,
          inject: [LOGGER],
          useFactory: (logger: Logger) => graphqlOptions(settings, logger),
        }),
      ],
      providers: [
        { provide: API_SETTINGS, useValue: settings },
        {
          provide: API_TOKEN_STORE,
          useFactory: (logger: Logger) => options.tokenStore ?? openApiTokenStore(authSettings(config), logger),
          inject: [LOGGER],
        },
        { provide: API_TOKENS, useFactory: (store: ApiTokenStore) => new ApiTokens(store), inject: [API_TOKEN_STORE] },
        { provide: API_RATE_LIMITER, useFactory: () => new TokenBucketRateLimiter(settings.rateLimit) },
        { provide: API_IP_RATE_LIMITER, useFactory: () => new TokenBucketRateLimiter(settings.ipRateLimit) },
        { provide: API_READ_MODELS, useExisting: READ_MODELS },
        {
          provide: CONSISTENCY_GATE,
          useFactory: (check: ConsistencyCheck) => new ReadModelConsistencyGate(check, settings.consistencyTimeoutMs),
          inject: [READ_MODEL_CONSISTENCY],
        },
        ReadAfterWrite,
        StreamOwnership,
        ApiWorkspace,
        GraphqlGateMiddleware,
        DevTokenBootstrap,
        ApiLifecycle,
        ...liveApiProviders(live),
        ...apiResolvers,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(GraphqlGateMiddleware).forRoutes({ path: GRAPHQL_PATH, method: RequestMethod.ALL });
  }

  /** After the global body parser, before Nest's own error handler (registered after init hooks). */
  onModuleInit(): void {
    const adapter = this.http?.httpAdapter;
    if (adapter === undefined || adapter === null) return;
    // `req.ip`, the per-address rate limit's key, is the socket's peer unless proxies are trusted
    // (Express's `trust proxy`, off by default: a client could name any address in X-Forwarded-For).
    const express = adapter.getInstance() as { set?: (name: string, value: unknown) => void };
    express.set?.('trust proxy', this.settings.trustProxy === 0 ? false : this.settings.trustProxy);
    adapter.use(GRAPHQL_PATH, graphqlBodyErrorHandler(this.logger.child({ component: 'api-gate' })));
  }
}
