import type { Caller } from '@lomo/auth';
import { appendCopies } from '@lomo/command-handling';
import { streams, type Clock, type IdGenerator } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import { assertOperator } from '../access/operator-access';
import { recordOperatorAction, type OperatorActionInput } from '../audit/record-operator-action';
import { ConfirmationRequiredError, UnknownTargetError } from '../errors';
import { describeForkPoint, type ForkPoint } from './fork-point';
import { planFork, type ForkSource } from './plan-fork';

export interface ForkTaskRequest {
  at: ForkPoint;
  /** A fork is a write: refused unless true. */
  confirm: boolean;
  via?: OperatorActionInput['via'];
}

export interface ForkTaskResult {
  forkTaskId: string;
  sourceTaskId: string;
  workspaceId: string;
  sourceRevision: number;
  sourcePosition: string;
  atStep?: { turnId: string; step: number };
  turns: Array<{ sourceTurnId: string; forkTurnId: string }>;
  cancelledTurnId?: string;
  /** The streams written, each created by this fork. */
  streams: string[];
  copied: number;
  added: number;
  actionId: string;
}

/** The source task's stream and every turn stream it opened, read whole (reads only). */
export async function readForkSource(store: Pick<EventStore, 'readStream'>, taskId: string): Promise<ForkSource> {
  const taskEvents = await store.readStream(streams.task(taskId));
  const turns = new Map<string, Awaited<ReturnType<EventStore['readStream']>>>();
  for (const event of taskEvents)
    if (event.type === 'TurnOpened') {
      const { turnId } = event.data as { turnId: string };
      if (!turns.has(turnId)) turns.set(turnId, await store.readStream(streams.turn(turnId)));
    }
  return { taskId, taskEvents, turns };
}

/**
 * `lomo task fork`: a new task in the source's workspace, copied from the source as it stood at
 * `at` (plan-fork.ts), whose tools stay stubbed until `armForkTools`. Each stream is created with
 * "no stream" expected (the fork's ids are new, so nothing can land on the source's streams, and a
 * repeat of the same plan is the store's idempotent no-op), the task stream last; then the fork is
 * recorded as an operator action. Refused with nothing written: a caller that is no operator, an
 * unknown task, a point beyond the task or a step never committed, a missing confirmation.
 */
export async function forkTask(
  store: EventStore,
  caller: Caller,
  taskId: string,
  request: ForkTaskRequest,
  deps: { clock: Clock; ids: IdGenerator },
): Promise<ForkTaskResult> {
  assertOperator(caller, 'forking a task');
  const source = await readForkSource(store, taskId);
  if (source.taskEvents.length === 0) throw new UnknownTargetError('task', taskId);
  const actionId = deps.ids.uuid();
  const plan = planFork(source, {
    at: request.at,
    forkTaskId: deps.ids.uuid(),
    operatorUserId: caller.userId,
    actionId,
  });
  if (request.confirm !== true)
    throw new ConfirmationRequiredError(`forking task ${taskId} at ${describeForkPoint(request.at)}`);
  for (const write of plan.writes) await appendCopies(store, write.streamId, write.events, 'no_stream');
  await recordOperatorAction(
    store,
    {
      caller,
      actionId,
      action: 'task_forked',
      via: request.via ?? { tool: 'cli', command: 'task fork' },
      outcome: 'completed',
      targetWorkspaceId: plan.workspaceId,
      details: {
        sourceTaskId: plan.sourceTaskId,
        forkTaskId: plan.forkTaskId,
        at: describeForkPoint(request.at),
        sourceRevision: plan.sourceRevision,
        sourcePosition: plan.sourcePosition,
        copiedEvents: plan.copied,
        streams: plan.writes.map((w) => w.streamId),
      },
    },
    deps,
  );
  return {
    forkTaskId: plan.forkTaskId,
    sourceTaskId: plan.sourceTaskId,
    workspaceId: plan.workspaceId,
    sourceRevision: plan.sourceRevision,
    sourcePosition: plan.sourcePosition,
    ...(plan.atStep !== undefined ? { atStep: plan.atStep } : {}),
    turns: plan.turns,
    ...(plan.cancelledTurnId !== undefined ? { cancelledTurnId: plan.cancelledTurnId } : {}),
    streams: plan.writes.map((w) => w.streamId),
    copied: plan.copied,
    added: plan.added,
    actionId,
  };
}
