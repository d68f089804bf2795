import { Inject } from '@nestjs/common';
import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { EVENT_STORE, type EventStore } from '@lomo/eventstore';
import type { Caller } from '@lomo/auth';
import { streams } from '@lomo/contracts';
import type { ExistingTask } from '@lomo/domain';
import { LOGGER, type Logger } from '@lomo/observability';
import { TaskView } from '@lomo/runtime';
import { CurrentCaller } from '../../auth/current-caller.decorator';
import { requireContentRead } from '../../tenancy/content-access';
import { mapConstraint, mapHistorySegment } from '../mappers/map-task-context';
import { ToolDomain } from '../types/enums';
import { HistorySegment, TaskConstraint } from '../types/task-context.types';
import { Task } from '../types/task.types';

/**
 * What a task's steps are shown besides their own messages: history segments, the person's
 * constraints, the tool domains loaded. Folded from the task stream with the task decider on
 * demand rather than kept in the `tasks` read model: these are inspection fields, read rarely,
 * while every task event would otherwise rewrite a larger task document (and every task list
 * page carry it); the fold is the very rule the runtime applies, so nothing can drift from it.
 */
@Resolver(() => Task)
export class TaskContextResolver {
  /** One fold per Task object: its fields asked together read the stream once. */
  private readonly folds = new WeakMap<Task, Promise<TaskView>>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @ResolveField(() => [HistorySegment], {
    description:
      "Every summary segment of the task's history, shown or not (superseded, excluded), in the order appended. Each names the steps it covers, which `turnStep` opens.",
  })
  async historySegments(@CurrentCaller() caller: Caller, @Parent() task: Task): Promise<HistorySegment[]> {
    const state = await this.read(caller, task, 'HistorySegmentAppended', 'Task.historySegments');
    return (state?.segments ?? []).map(mapHistorySegment);
  }

  @ResolveField(() => [TaskConstraint], {
    description: 'What the person required, in force and withdrawn, in the order stated.',
  })
  async constraints(@CurrentCaller() caller: Caller, @Parent() task: Task): Promise<TaskConstraint[]> {
    const state = await this.read(caller, task, 'ConstraintsNoted', 'Task.constraints');
    return Object.values(state?.constraints ?? {}).map(mapConstraint);
  }

  @ResolveField(() => [ToolDomain], {
    description:
      "Domains the model loaded (tools.load) and that were not unloaded since. CORE is always offered and not listed; a step's `context.tools` says what it could call.",
  })
  async toolDomains(@CurrentCaller() caller: Caller, @Parent() task: Task): Promise<string[]> {
    const state = await this.read(caller, task, 'ToolDomainsLoaded', 'Task.toolDomains');
    return [...(state?.loadedDomains ?? [])];
  }

  /**
   * The policy first (a Task comes only from reads scoped to the caller's workspace), then the
   * task folded from its stream; a stream of another workspace reads as no task at all.
   */
  private async read(caller: Caller, task: Task, eventType: string, path: string): Promise<ExistingTask | undefined> {
    const streamId = streams.task(task.id);
    const target = { streamId, workspaceId: caller.workspaceId, eventType, what: 'task', id: task.id };
    requireContentRead(caller, target, this.logger, path);
    let fold = this.folds.get(task);
    if (fold === undefined) {
      fold = TaskView.load(this.store, task.id);
      this.folds.set(task, fold);
    }
    const view = await fold;
    return view.workspaceId === caller.workspaceId ? view.existing : undefined;
  }
}
