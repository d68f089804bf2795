import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BLOB_STORE, type BlobStore } from '@lomo/blobs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { LOMO_CONFIG, type LomoConfig } from '@lomo/config';
import {
  CLOCK,
  ID_GENERATOR,
  TEST_CONTROL,
  testControlOff,
  type Clock,
  type IdGenerator,
  type TestControl,
} from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { MODEL_PROVIDER, type ModelProvider } from '@lomo/llm';
import { LOGGER, METRICS, type Logger, type Metrics } from '@lomo/observability';
import { withMessageTraceContext } from '@lomo/platform';
import {
  ExecutorRuntime,
  ModelSummarizer,
  noFaults,
  timerScheduler,
  type FaultInjector,
  type RuntimeOptions,
  type RuntimeOptionsInput,
  type Scheduler,
  MEMORY_RECALL,
  PROFILE_SNAPSHOT,
  type MemoryRecall,
  type ProfileSnapshot,
} from '@lomo/runtime';
import { TOOL_REGISTRY, type ToolDecorator, type ToolRegistry } from '@lomo/tools';
import {
  ARTIFACT_COMMANDS,
  ARTIFACT_READER,
  WORKSPACE_READ_MODEL,
  type ArtifactCommands,
  type ArtifactReader,
  type WorkspaceReadModel,
} from '@lomo/workspace';
import { GENERATION_REQUESTS, type GenerationRequests } from '@lomo/generation';
import { ExecutorIdentity } from './executor-identity';
import { ExecutorLifecycle } from './executor-lifecycle';
import { EXECUTOR_RUNTIME, RUNTIME_OPTIONS, STARTER_TOOLS } from './executor-tokens';
import { TaskCommandsModule } from '../tasks/task-commands.module';
import { createStarterToolSet, type StarterTools } from './starter-tools.provider';
import { runtimeOptionsFromConfig } from './runtime-options-from-config';
import { modelProviderFrom, tokenizerFromConfig } from '../model-provider-from-config';

export interface ExecutorModuleOptions {
  runtime?: Partial<RuntimeOptionsInput>;
  /** Tests pass a scripted model; otherwise LOMO_MODEL_PROVIDER decides. */
  model?: ModelProvider;
  scheduler?: Scheduler;
  faults?: FaultInjector;
  /** Wraps every starter tool; the drills' entry files record each real effect with it. */
  decorateTools?: ToolDecorator;
  /**
   * A module exporting the workspace's ports (ARTIFACT_COMMANDS, ARTIFACT_READER,
   * WORKSPACE_READ_MODEL from @lomo/workspace): the document, flow and asset tools are registered
   * only when all three are bound, here or by a global module.
   */
  workspace?: DynamicModule;
}

/**
 * The durable agent runtime as a Nest module: turn worker, wake-up consumer and watchdog (in
 * ExecutorRuntime), the model and tool providers, and the task commands (stop, pause, resume,
 * resolve a checkpoint). Stands on PlatformModule's store, bus, blobs, logs, metrics, clock and ids.
 */
@Module({})
export class ExecutorModule {
  static register(options: ExecutorModuleOptions = {}): DynamicModule {
    return {
      module: ExecutorModule,
      imports: [CqrsModule, TaskCommandsModule, ...(options.workspace ? [options.workspace] : [])],
      providers: [
        {
          provide: RUNTIME_OPTIONS,
          useFactory: (config: LomoConfig, identity: ExecutorIdentity) =>
            runtimeOptionsFromConfig(config, identity.workerId, options.runtime),
          inject: [LOMO_CONFIG, ExecutorIdentity],
        },
        ExecutorIdentity,
        {
          provide: MODEL_PROVIDER,
          useFactory: (config: LomoConfig) => options.model ?? modelProviderFrom(config),
          inject: [LOMO_CONFIG],
        },
        {
          provide: STARTER_TOOLS,
          useFactory: (
            config: LomoConfig,
            store: EventStore,
            bus: EventBus,
            blobs: BlobStore,
            clock: Clock,
            logger: Logger,
            commands?: ArtifactCommands,
            reader?: ArtifactReader,
            readModel?: WorkspaceReadModel,
            generation?: GenerationRequests,
          ) =>
            createStarterToolSet(
              config,
              store,
              bus,
              blobs,
              clock,
              logger,
              options.decorateTools,
              { commands, reader, readModel },
              generation,
            ),
          inject: [
            LOMO_CONFIG,
            EVENT_STORE,
            EVENT_BUS,
            BLOB_STORE,
            CLOCK,
            LOGGER,
            { token: ARTIFACT_COMMANDS, optional: true },
            { token: ARTIFACT_READER, optional: true },
            { token: WORKSPACE_READ_MODEL, optional: true },
            { token: GENERATION_REQUESTS, optional: true },
          ],
        },
        { provide: TOOL_REGISTRY, useFactory: (tools: StarterTools) => tools.registry, inject: [STARTER_TOOLS] },
        {
          provide: EXECUTOR_RUNTIME,
          inject: [
            LOMO_CONFIG,
            RUNTIME_OPTIONS,
            EVENT_STORE,
            EVENT_BUS,
            BLOB_STORE,
            MODEL_PROVIDER,
            TOOL_REGISTRY,
            CLOCK,
            ID_GENERATOR,
            LOGGER,
            METRICS,
            { token: GENERATION_REQUESTS, optional: true },
            { token: MEMORY_RECALL, optional: true },
            { token: PROFILE_SNAPSHOT, optional: true },
            { token: TEST_CONTROL, optional: true },
          ],
          useFactory: (
            config: LomoConfig,
            runtimeOptions: RuntimeOptions,
            store: EventStore,
            bus: EventBus,
            blobs: BlobStore,
            model: ModelProvider,
            tools: ToolRegistry,
            clock: Clock,
            ids: IdGenerator,
            logger: Logger,
            registry: Metrics,
            generation?: GenerationRequests,
            recall?: MemoryRecall,
            profile?: ProfileSnapshot,
            testControl: TestControl = testControlOff,
          ) =>
            new ExecutorRuntime(
              {
                store,
                bus,
                blobs,
                model,
                tools,
                clock,
                ids,
                logger: logger.child({ component: 'executor', workerId: runtimeOptions.workerId }),
                registry,
                scheduler: options.scheduler ?? timerScheduler,
                faults: options.faults ?? noFaults,
                options: runtimeOptions,
                // The generation providers price a plan's paid items for its budget card.
                ...(generation !== undefined ? { planQuoter: generation } : {}),
                tokenizer: tokenizerFromConfig(config),
                // Memory (MemoryWorkerModule) recalls into the tail and supplies the profile snapshot.
                ...(recall !== undefined ? { recall } : {}),
                ...(profile !== undefined ? { profile } : {}),
                // Drills' mutation switches (every one off unless LOMO_TEST_CONTROL=on).
                testControl,
                // A configured model writes history summaries; the offline default summarizes extractively.
                ...(config.LOMO_MODEL_PROVIDER === 'openai' ? { summarizer: new ModelSummarizer(model) } : {}),
              },
              {
                partitions: config.LOMO_BUS_PARTITIONS,
                maxAttempts: config.LOMO_BUS_MAX_ATTEMPTS,
                traced: withMessageTraceContext,
                testControl,
              },
            ),
        },
        ExecutorLifecycle,
      ],
      exports: [EXECUTOR_RUNTIME, MODEL_PROVIDER, TOOL_REGISTRY],
    };
  }
}
