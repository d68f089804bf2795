import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import type { ModelProvider } from '@lomo/llm';
import {
  ARTIFACT_BINDINGS,
  DEFAULT_ROUTING_SETTINGS,
  ROUTING_CANDIDATES,
  UnboundArtifactBindings,
  type ArtifactBindings,
  type RoutingCandidates,
  type RoutingSettings,
} from '@lomo/routing';
import { RouteUserMessageHandler } from './route-user-message.handler';
import { RouterService } from './router.service';
import { routingCandidatesProvider } from './routing-candidates.provider';
import { ROUTING_MODEL, ROUTING_SETTINGS, ROUTING_TIMEOUT_MS } from './routing-tokens';
import { WakeUpPublisher } from './wake-up-publisher';
import { modelProviderFrom } from '../model-provider-from-config';
import { routerReadSideProviders } from '../routing-read/routing-read.providers';

/**
 * The router (DESIGN.md §4 step 2): deterministic first, then the configured model with a
 * structured answer, over a bounded candidate set. Needs the platform's EVENT_STORE, EVENT_BUS,
 * DOCUMENT_STORE, LOGGER, CLOCK and LOMO_CONFIG (PlatformModule provides them globally). Artefact
 * bindings come from the workspace projection: the projector module's in the embedded default,
 * the router's own read side otherwise (routing-read.providers.ts).
 */
export interface RouterModuleOptions {
  /** Tests pass a scripted model; otherwise LOMO_MODEL_PROVIDER decides (offline by default). */
  model?: ModelProvider;
  candidates?: RoutingCandidates;
  bindings?: ArtifactBindings;
  settings?: Partial<RoutingSettings>;
  timeoutMs?: number;
  /**
   * The module that serves ROUTING_INDEX, SEARCH_INDEX and EMBEDDING_PROVIDER (the projector's, in
   * the embedded default, so both share one search index). Without it the router reads them itself.
   */
  readSide?: DynamicModule;
}

/**
 * Given bindings win; with the projector as read side they come from it; with a read side of its
 * own the router reads the workspace projection itself (routerReadSideProviders). Tests that fake
 * the candidates and name no bindings get none bound (every artefact unknown), as before.
 */
function bindingsProviders(options: RouterModuleOptions): Provider[] {
  if (options.bindings !== undefined) return [{ provide: ARTIFACT_BINDINGS, useValue: options.bindings }];
  if (options.candidates !== undefined)
    return [{ provide: ARTIFACT_BINDINGS, useValue: new UnboundArtifactBindings() }];
  return [];
}

function routerProviders(options: RouterModuleOptions): Provider[] {
  return [
    RouteUserMessageHandler,
    RouterService,
    {
      provide: WakeUpPublisher,
      useFactory: (bus: EventBus, config: LomoConfig) => new WakeUpPublisher(bus, config.LOMO_BUS_PARTITIONS),
      inject: [EVENT_BUS, LOMO_CONFIG],
    },
    {
      provide: ROUTING_MODEL,
      useFactory: (config: LomoConfig) => options.model ?? modelProviderFrom(config),
      inject: [LOMO_CONFIG],
    },
    { provide: ROUTING_SETTINGS, useValue: { ...DEFAULT_ROUTING_SETTINGS, ...options.settings } },
    {
      provide: ROUTING_TIMEOUT_MS,
      useFactory: (c: LomoConfig) => options.timeoutMs ?? c.LOMO_ROUTING_TIMEOUT_MS,
      inject: [LOMO_CONFIG],
    },
    ...bindingsProviders(options),
    ...(options.candidates !== undefined
      ? [{ provide: ROUTING_CANDIDATES, useValue: options.candidates }]
      : [routingCandidatesProvider, ...(options.readSide === undefined ? routerReadSideProviders : [])]),
  ];
}

@Module({})
export class RouterModule {
  static register(options: RouterModuleOptions = {}): DynamicModule {
    const readSide = options.readSide !== undefined && options.candidates === undefined ? [options.readSide] : [];
    return {
      module: RouterModule,
      imports: [CqrsModule, ...readSide],
      providers: routerProviders(options),
      exports: [RouterService],
    };
  }
}
