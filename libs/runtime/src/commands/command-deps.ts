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

/** A conflict means someone appended meanwhile (a worker, the router): read again and decide again. */
export const COMMAND_ATTEMPTS = 8;
