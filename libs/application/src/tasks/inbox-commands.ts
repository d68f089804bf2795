import type { StreamWrite } from '@lomo/command-handling';
import type { TraceContext } from '@lomo/observability';

/** What a user does to a task through the API, beyond what the executor's commands cover. */
interface UserWrite {
  readonly workspaceId: string;
  readonly userId: string;
  readonly trace: TraceContext;
}

/** Takes a message back out of a task's inbox before a step claimed it. */
export class WithdrawMessage {
  constructor(
    readonly taskId: string,
    readonly messageId: string,
    readonly by: UserWrite,
  ) {}
}

/** Changes the text of a message still waiting in a task's inbox. */
export class ReplaceMessage {
  constructor(
    readonly taskId: string,
    readonly messageId: string,
    readonly text: string,
    readonly language: string,
    readonly by: UserWrite,
  ) {}
}

export class ArchiveTask {
  constructor(
    readonly taskId: string,
    readonly by: UserWrite,
  ) {}
}

export interface TaskWriteResult {
  taskId: string;
  changed: boolean;
  /** Where the outcome sits (the one result shape of @lomo/command-handling): consistency tokens. */
  writes: StreamWrite[];
}
