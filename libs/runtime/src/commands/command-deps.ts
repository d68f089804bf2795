import type { StreamWrite } from '@lomo/command-handling';
import type { EventBus } from '@lomo/bus';
import type { IdGenerator } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';

export interface CommandDeps {
  store: EventStore;
  bus: Pick<EventBus, 'publish'>;
  ids: IdGenerator;
  logger: Logger;
}

/** The one result shape of the task commands (the decider command handler's, libs/command-handling). */
export interface TaskCommandResult {
  changed: boolean;
  writes: StreamWrite[];
}
