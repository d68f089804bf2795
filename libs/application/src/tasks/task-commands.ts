import type { Actor } from '@lomo/contracts';
import type { ResolveCheckpointRequest } from '@lomo/runtime';

/** Stops a task: its active turn is cancelled first, then the task; the lease holder is told to abort. */
export class StopTask {
  constructor(
    readonly taskId: string,
    readonly by: Actor,
    readonly reason?: string,
  ) {}
}

export class PauseTask {
  constructor(
    readonly taskId: string,
    readonly by: Actor,
    readonly reason?: string,
  ) {}
}

export class ResumeTask {
  constructor(
    readonly taskId: string,
    readonly by: Actor,
  ) {}
}

/** The person's decision on a checkpoint: the only thing that authorizes a paid or irreversible call. */
export class ResolveCheckpoint {
  constructor(readonly request: ResolveCheckpointRequest) {}
}
