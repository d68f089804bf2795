import { LomoError } from '@lomo/contracts';

/** The bus or its log cannot be reached right now (broker down, file locked); retry later. */
export class BusUnavailableError extends LomoError {
  readonly code = 'BUS_UNAVAILABLE';
  readonly retriable = true;
  constructor(message: string, cause?: unknown) {
    super(message, { cause: cause instanceof Error ? cause.message : String(cause) });
  }
}

/** The bus's storage failed in a way a retry will not fix (corrupt file, schema mismatch). */
export class BusStorageError extends LomoError {
  readonly code = 'BUS_STORAGE_FAILED';
  readonly retriable = false;
  constructor(message: string, cause?: unknown) {
    super(message, { cause: cause instanceof Error ? cause.message : String(cause) });
  }
}

export class UnknownTopicError extends LomoError {
  readonly code = 'BUS_UNKNOWN_TOPIC';
  readonly retriable = false;
  constructor(readonly topic: string) {
    super(`Topic "${topic}" does not exist; create it with ensureTopics first`, { topic });
  }
}

export class TopicConflictError extends LomoError {
  readonly code = 'BUS_TOPIC_CONFLICT';
  readonly retriable = false;
  constructor(
    readonly topic: string,
    readonly existingPartitions: number,
    readonly requestedPartitions: number,
  ) {
    super(`Topic "${topic}" has ${existingPartitions} partitions, not ${requestedPartitions}`, {
      topic,
      existingPartitions,
      requestedPartitions,
    });
  }
}

export class InvalidMessageError extends LomoError {
  readonly code = 'BUS_INVALID_MESSAGE';
  readonly retriable = false;
  constructor(
    message: string,
    readonly issues: ReadonlyArray<{ path: string; message: string }>,
  ) {
    super(message, { issues });
  }
}

export class BusClosedError extends LomoError {
  readonly code = 'BUS_CLOSED';
  readonly retriable = false;
  constructor() {
    super('The event bus is closed');
  }
}

export class RelayStoppedError extends LomoError {
  readonly code = 'BUS_RELAY_STOPPED';
  readonly retriable = false;
  constructor(readonly relayId: string) {
    super(`Event relay ${relayId} is stopped`, { relayId });
  }
}
