import { type DynamicModule, Module } from '@nestjs/common';
import type { LomoConfig } from '@lomo/config';
import { PlatformModule, type PlatformOptions } from '@lomo/platform';
import {
  MessagesModule,
  RouterModule,
  type RouterModuleOptions,
  ExecutorModule,
  type ExecutorModuleOptions,
  ProjectorModule,
  WorkspaceModule,
  WorkspaceReadSideModule,
  GenerationModule,
  GenerationOrdersModule,
  type GenerationModuleOptions,
  MemoryWorkerModule,
  type MemoryWorkerModuleOptions,
} from '@lomo/application';
import { ApiModule } from '@lomo/api';
import { NotifierModule } from '@lomo/webhooks';

/** Every app in one process on the embedded adapters (the generation service and its upstream included). */
@Module({})
export class StandaloneModule {
  /** `executor` is for entry files such as the recovery bench's (an effect log on the tools). */
  static register(
    config: LomoConfig,
    options: PlatformOptions & {
      executor?: ExecutorModuleOptions;
      router?: RouterModuleOptions;
      /**
       * The module binding the workspace's ports (ARTIFACT_COMMANDS, ARTIFACT_READER,
       * WORKSPACE_READ_MODEL): one instance shared by the executor's tools and the API's artefact
       * slice. Without it the agent has no workspace tools and the API's artefact operations
       * answer WORKSPACE_UNAVAILABLE.
       */
      workspace?: DynamicModule;
      /** Generation providers of a test's own (no upstream process is started then). */
      generation?: GenerationModuleOptions['providers'];
      /**
       * Fault points of the generation service, for crash drills' entry files (e.g.
       * test/integration/api/support/standalone-killed-before-paid-call.ts); `npm start` sets none.
       */
      generationHooks?: GenerationModuleOptions['hooks'];
      /** Memory's extractor of a test's own (e.g. one that fails, for the dead-letter drill). */
      memory?: MemoryWorkerModuleOptions;
    } = {},
  ): DynamicModule {
    // One projector instance: the API reads through it (read models, consistency tokens).
    const projector = ProjectorModule.register(config);
    // One notifier: it delivers webhooks, and the API manages them through its WebhookService.
    const notifier = NotifierModule.register(config);
    return {
      module: StandaloneModule,
      imports: [
        PlatformModule.forRoot(config, options),
        MessagesModule,
        // Memory's background worker, and the recall and profile the executor's steps read.
        MemoryWorkerModule.register(options.memory),
        // Global: ARTIFACT_COMMANDS / ARTIFACT_READER for the API, the tools and the executor
        // (unless the caller binds a workspace of its own, as tests with a fake do).
        ...(options.workspace ? [] : [WorkspaceModule.register()]),
        RouterModule.register({ readSide: projector, ...options.router }),
        ExecutorModule.register({
          ...options.executor,
          // The tools read the projector's workspace read model unless a test binds its own.
          workspace: options.executor?.workspace ?? options.workspace ?? WorkspaceReadSideModule.from(projector),
        }),
        // Media tools order jobs; the generation service (same process here) runs them.
        ...(config.LOMO_GENERATION === 'on'
          ? [
              GenerationOrdersModule.register(config, { providers: options.generation }),
              GenerationModule.register(config, {
                readSide: projector,
                providers: options.generation,
                workspace: options.workspace,
                hooks: options.generationHooks,
              }),
            ]
          : []),
        projector,
        notifier,
        ApiModule.register(config, { readSide: projector, webhooks: notifier, workspace: options.workspace }),
      ],
    };
  }
}
