import type { Caller } from '@lomo/auth';
import { AggregateStream } from '@lomo/command-handling';
import { streams, type Clock, type IdGenerator } from '@lomo/contracts';
import { DomainError, taskDecider, taskEventTypes, TaskErrors, type TaskEvent } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import { assertOperator } from '../access/operator-access';
import { recordOperatorAction, type OperatorActionInput } from '../audit/record-operator-action';
import { BadOperatorInputError, ConfirmationRequiredError, UnknownTargetError } from '../errors';
import { NotAForkError, UnknownToolsError } from './fork-errors';

export interface ArmToolsRequest {
  /** Tool names, or `all`. */
  tools: 'all' | readonly string[];
  /** The tools the runtime has: a name outside them is refused (absent: not checked). */
  knownTools?: readonly string[];
  confirm: boolean;
  via?: OperatorActionInput['via'];
}

export interface ArmToolsResult {
  taskId: string;
  workspaceId: string;
  /** What this call armed (empty: all of it was armed already). */
  armed: 'all' | string[];
  /** What the fork has armed now. */
  nowArmed: 'all' | string[];
  actionId: string | null;
}

/** `--tools notes.create,notes.list` or `--tools all`. */
export function parseToolList(value: string): 'all' | string[] {
  const names = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  if (names.length === 1 && names[0] === 'all') return 'all';
  if (names.length === 0 || names.includes('all'))
    throw new BadOperatorInputError(`--tools "${value}": tool names separated by commas, or all`);
  return [...new Set(names)];
}

/**
 * `lomo task arm`: from now on the fork runs calls to these tools (ToolsArmed on its task stream,
 * decided on its state and appended at the revision it was read at); recorded as an operator
 * action. Refused with nothing written: no operator, an unknown task, a task that is no fork, an
 * unknown tool name, a missing confirmation. Arming what is armed already writes nothing.
 */
export async function armForkTools(
  store: EventStore,
  caller: Caller,
  taskId: string,
  request: ArmToolsRequest,
  deps: { clock: Clock; ids: IdGenerator },
): Promise<ArmToolsResult> {
  assertOperator(caller, "arming a fork's tools");
  const stream = await AggregateStream.read(store, streams.task(taskId), taskDecider, taskEventTypes);
  if (stream.workspaceId === undefined) throw new UnknownTargetError('task', taskId);
  const workspaceId = stream.workspaceId;
  if (request.tools !== 'all' && request.knownTools !== undefined) {
    const unknown = request.tools.filter((t) => !request.knownTools!.includes(t));
    if (unknown.length > 0) throw new UnknownToolsError(unknown, request.knownTools);
  }
  let decided: TaskEvent[];
  try {
    decided = taskDecider.decide({ type: 'ArmTools', tools: request.tools, by: caller.userId }, stream.state);
  } catch (error) {
    if (error instanceof DomainError && error.code === TaskErrors.NOT_A_FORK) throw new NotAForkError(taskId);
    throw error;
  }
  if (request.confirm !== true) throw new ConfirmationRequiredError(`arming tools of fork ${taskId}`);
  const armed = decided.length === 0 ? [] : (decided[0].data as { tools: 'all' | string[] }).tools;
  const actionId = decided.length === 0 ? null : deps.ids.uuid();
  // At the revision the decision was made on: a write in between refuses it.
  if (actionId !== null)
    await stream.append(
      store,
      decided,
      { correlationId: actionId, causationId: null, workspaceId, actor: { kind: 'user', userId: caller.userId } },
      deps.ids,
      { eventIdFor: (_event, i) => (i === 0 ? actionId : undefined) },
    );
  const after = stream.state;
  const nowArmed = after.status === 'none' || after.fork === null ? [] : after.fork.armed;
  if (actionId === null) return { taskId, workspaceId, armed, nowArmed: copyOf(nowArmed), actionId };
  await recordOperatorAction(
    store,
    {
      caller,
      action: 'fork_tools_armed',
      via: request.via ?? { tool: 'cli', command: 'task arm' },
      outcome: 'completed',
      targetWorkspaceId: workspaceId,
      details: { taskId, tools: armed === 'all' ? ['all'] : armed },
    },
    deps,
  );
  return { taskId, workspaceId, armed, nowArmed: copyOf(nowArmed), actionId };
}

const copyOf = (armed: 'all' | readonly string[]): 'all' | string[] => (armed === 'all' ? 'all' : [...armed]);
