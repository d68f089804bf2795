import { streams, type EventEnvelope } from '@lomo/contracts';
import { isApproved, taskDecider, type ExistingTask, type TaskEvent, type TaskState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { asTaskEvent } from '../events/domain-events';

/**
 * A task as a worker keeps it in memory: folded state, the revision it was read at, and the
 * workspace it belongs to (from the events' metadata; the domain does not carry it).
 */
export class TaskView {
  /** Approvals whose recording event names the agent as its author: never an authorization. */
  private readonly agentApprovals = new Set<string>();

  private constructor(
    readonly taskId: string,
    public state: TaskState,
    public revision: number | 'no_stream',
    public workspaceId: string | undefined,
  ) {}

  static async load(store: EventStore, taskId: string): Promise<TaskView> {
    const view = new TaskView(taskId, taskDecider.initialState(), 'no_stream', undefined);
    view.apply(await store.readStream(streams.task(taskId)));
    return view;
  }

  get streamId(): string {
    return streams.task(this.taskId);
  }

  /** The task, or undefined when its stream holds no TaskCreated. */
  get existing(): ExistingTask | undefined {
    return this.state.status === 'none' ? undefined : this.state;
  }

  /** Reads only what was appended since the last read: the cost does not grow with the stream. */
  async catchUp(store: EventStore): Promise<number> {
    const from = this.revision === 'no_stream' ? 0 : this.revision + 1;
    const fresh = await store.readStream(this.streamId, { fromRevision: from });
    this.apply(fresh);
    return fresh.length;
  }

  apply(envelopes: readonly EventEnvelope[]): void {
    for (const envelope of envelopes) {
      this.workspaceId ??= envelope.metadata.workspaceId;
      this.revision = envelope.metadata.revision;
      const event = asTaskEvent(envelope);
      if (event === undefined) continue;
      if (event.type === 'CheckpointResolved' && envelope.metadata.actor.kind === 'agent' && event.data.callId)
        this.agentApprovals.add(event.data.callId);
      this.state = taskDecider.evolve(this.state, event);
    }
  }

  /** Folds events this worker just appended, ending at `revision`, without reading them back. */
  applyOwn(events: readonly TaskEvent[], revision: number): void {
    for (const event of events) this.state = taskDecider.evolve(this.state, event);
    this.revision = revision;
  }

  /** True only for a recorded approval of exactly this call id, made by someone other than the agent. */
  approved(callId: string): boolean {
    return isApproved(this.state, callId) && !this.agentApprovals.has(callId);
  }
}
