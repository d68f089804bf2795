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
} from './task-command-handlers';
import { COMMAND_DEPS } from '../executor/executor-tokens';
import { ArchiveTaskHandler, ReplaceMessageHandler, WithdrawMessageHandler } from './inbox-command-handlers';
import { UpdateTaskSummaryHandler, UpgradeTaskHandler } from './correction-command-handlers';
import { MergeTasksHandler } from './merge-tasks.handler';
import { MoveMessageHandler } from './move-message.handler';
import {
  ApproveTaskPlanBudgetHandler,
  EditBriefHandler,
  EditChecklistHandler,
  SetAutonomyHandler,
  SetChecklistItemStatusHandler,
} from './plan-command-handlers';

/**
 * The person's commands on a task as CQRS commands, without the runtime: stop, pause, resume and
 * resolve-checkpoint (the cancel reaches the executor holding the lease over the bus), withdraw
 * or replace an inbox message, archive; the corrections (move a message, merge tasks, upgrade)
 * the runtime's summary, and the person's edits of the plan (brief, checklist, item status,
 * autonomy, plan budget). The API process and the executor both import it.
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
    WithdrawMessageHandler,
    ReplaceMessageHandler,
    ArchiveTaskHandler,
    MoveMessageHandler,
    MergeTasksHandler,
    UpgradeTaskHandler,
    UpdateTaskSummaryHandler,
    EditBriefHandler,
    EditChecklistHandler,
    SetChecklistItemStatusHandler,
    SetAutonomyHandler,
    ApproveTaskPlanBudgetHandler,
  ],
})
export class TaskCommandsModule {}
