import { AggregateStream } from '@lomo/command-handling';
import { streams } from '@lomo/contracts';
import {
  isApproved,
  taskDecider,
  taskEventTypes,
  type ExistingTask,
  type TaskEvent,
  type TaskState,
} from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

/**
 * A task as a worker keeps it in memory: folded state, the revision it was read at, and the
 * workspace it belongs to (from the events' metadata; the domain does not carry it). Appends are
 * fenced by that revision (AggregateStream).
 */
export class TaskView extends AggregateStream<TaskEvent, TaskState> {
  private constructor(readonly taskId: string) {
    super(streams.task(taskId), taskDecider, taskEventTypes);
  }

  static async load(store: EventStore, taskId: string): Promise<TaskView> {
    const view = new TaskView(taskId);
    view.apply(await store.readStream(view.streamId));
    return view;
  }

  /** The task, or undefined when its stream holds no TaskCreated. */
  get existing(): ExistingTask | undefined {
    return this.state.status === 'none' ? undefined : this.state;
  }

  /** The domain's one approval rule: a person's recorded approval of exactly this call id. */
  approved(callId: string): boolean {
    return isApproved(this.state, callId);
  }
}
