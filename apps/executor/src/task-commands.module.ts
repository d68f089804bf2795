import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_BUS, type EventBus } from '@lomo/bus';
import { ID_GENERATOR, type IdGenerator } from '@lomo/contracts';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import { LOGGER, type Logger } from '@lomo/observability';
import type { CommandDeps } from '@lomo/runtime';
import {
  PauseTaskHandler,
  ResolveCheckpointHandler,
  ResumeTaskHandler,
  StopTaskHandler,
} from './commands/task-command-handlers';
import { COMMAND_DEPS } from './executor-tokens';

/**
 * Stop, pause, resume and resolve-checkpoint as CQRS commands, without the runtime: the API
 * process uses them too (the cancel reaches the executor holding the lease over the bus).
 */
@Module({
  imports: [CqrsModule],
  providers: [
    {
      provide: COMMAND_DEPS,
      useFactory: (store: EventStore, bus: EventBus, ids: IdGenerator, logger: Logger): CommandDeps => ({
        store,
        bus,
        ids,
        logger: logger.child({ component: 'task-commands' }),
      }),
      inject: [EVENT_STORE, EVENT_BUS, ID_GENERATOR, LOGGER],
    },
    StopTaskHandler,
    PauseTaskHandler,
    ResumeTaskHandler,
    ResolveCheckpointHandler,
  ],
})
export class TaskCommandsModule {}
