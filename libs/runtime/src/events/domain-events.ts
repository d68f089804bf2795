import type { EventEnvelope } from '@lomo/contracts';
import { taskEventTypes, turnEventTypes, type TaskEvent, type TurnEvent } from '@lomo/domain';

const taskTypes: ReadonlySet<string> = new Set(taskEventTypes);
const turnTypes: ReadonlySet<string> = new Set(turnEventTypes);

/**
 * Stored events were validated against their contract when appended and are upcast on read, so
 * their data already has the domain shape; only the type needs checking.
 */
export function asTaskEvent(envelope: EventEnvelope): TaskEvent | undefined {
  return taskTypes.has(envelope.type) ? ({ type: envelope.type, data: envelope.data } as TaskEvent) : undefined;
}

export function asTurnEvent(envelope: EventEnvelope): TurnEvent | undefined {
  return turnTypes.has(envelope.type) ? ({ type: envelope.type, data: envelope.data } as TurnEvent) : undefined;
}
