import { streams, type Actor, type EventDataMap, type NewEvent, type WriteMetadata } from '@lomo/contracts';
import {
  decideTask,
  decideTurn,
  evolveTask,
  evolveTurn,
  initialTaskState,
  initialTurnState,
  type TaskCommand,
  type TaskEvent,
  type TaskState,
  type TurnCommand,
  type TurnEvent,
  type TurnState,
} from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';

type MainEventType =
  | 'UserMessageReceived'
  | 'RoutingDecided'
  | 'ClarificationRequested'
  | 'ClarificationAnswered'
  | 'MainReplied'
  | 'TaskCardShown';

let eventCounter = 0;
/** Readable event ids, unique within a test file. */
const nextEventId = () => {
  eventCounter += 1;
  return `00000000-0000-4000-8000-${eventCounter.toString(16).padStart(12, '0')}`;
};

/**
 * Writes a scenario as the apps would: task and turn events decided by the real deciders from the
 * folded stream and appended with the exact expected revision; main-stream events written as
 * valid contract events (the router's and the api's job).
 */
export class ScenarioWriter {
  private readonly tasks = new Map<string, { state: TaskState; revision: number }>();
  private readonly turns = new Map<string, { state: TurnState; revision: number }>();

  constructor(
    private readonly store: EventStore,
    private readonly workspaceId: string,
    private readonly userId: string,
  ) {}

  private metadata(actor: Actor): WriteMetadata {
    return { correlationId: 'scenario', causationId: null, workspaceId: this.workspaceId, actor };
  }

  async main<T extends MainEventType>(type: T, data: EventDataMap[T]): Promise<void> {
    const actor: Actor =
      type === 'UserMessageReceived' ? { kind: 'user', userId: this.userId } : { kind: 'system', component: 'router' };
    const event: NewEvent = { eventId: nextEventId(), type, data, metadata: this.metadata(actor) };
    await this.store.append(streams.main(this.workspaceId, this.userId), [event], 'any');
  }

  async task(taskId: string, command: TaskCommand): Promise<TaskEvent[]> {
    const current = this.tasks.get(taskId) ?? { state: initialTaskState(), revision: -1 };
    const events = decideTask(command, current.state);
    await this.append(streams.task(taskId), events, current.revision, { kind: 'system', component: 'runtime' });
    this.tasks.set(taskId, {
      state: events.reduce(evolveTask, current.state),
      revision: current.revision + events.length,
    });
    return events;
  }

  async turn(turnId: string, command: TurnCommand): Promise<TurnEvent[]> {
    const current = this.turns.get(turnId) ?? { state: initialTurnState(), revision: -1 };
    const events = decideTurn(command, current.state);
    await this.append(streams.turn(turnId), events, current.revision, { kind: 'system', component: 'runtime' });
    this.turns.set(turnId, {
      state: events.reduce(evolveTurn, current.state),
      revision: current.revision + events.length,
    });
    return events;
  }

  private async append(streamId: string, events: ReadonlyArray<TaskEvent | TurnEvent>, revision: number, actor: Actor) {
    if (events.length === 0) return;
    const newEvents: NewEvent[] = events.map((e) => ({
      eventId: nextEventId(),
      type: e.type,
      data: e.data,
      metadata: this.metadata(actor),
    }));
    await this.store.append(streamId, newEvents, revision < 0 ? 'no_stream' : revision);
  }
}
