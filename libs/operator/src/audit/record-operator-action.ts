import type { Caller } from '@lomo/auth';
import { streams, type Clock, type IdGenerator, type OperatorActionKind, type operatorEvents } from '@lomo/contracts';
import type { EventStore } from '@lomo/eventstore';
import type { z } from 'zod';

type OperatorActionData = z.infer<typeof operatorEvents.OperatorActionRecorded>;

export interface OperatorActionInput {
  caller: Caller;
  action: OperatorActionKind;
  via: OperatorActionData['via'];
  outcome: OperatorActionData['outcome'];
  details: OperatorActionData['details'];
  targetWorkspaceId?: string;
  /** The action's id, when the events the action wrote already name it (a fork's correlation id). */
  actionId?: string;
}

/**
 * Appends `OperatorActionRecorded` to the operator's `operator-{workspace}` stream: every change
 * an operator makes is a fact naming them (DESIGN.md §4 "Tenancy"). Written after the action, with
 * its outcome, so a refused action (nothing changed) leaves no record.
 */
export async function recordOperatorAction(
  store: Pick<EventStore, 'append'>,
  input: OperatorActionInput,
  deps: { clock: Clock; ids: IdGenerator },
): Promise<OperatorActionData> {
  const { caller } = input;
  const actionId = input.actionId ?? deps.ids.uuid();
  const data: OperatorActionData = {
    actionId,
    action: input.action,
    operator: { userId: caller.userId, tokenId: caller.tokenId, tokenName: caller.tokenName },
    ...(input.targetWorkspaceId !== undefined ? { targetWorkspaceId: input.targetWorkspaceId } : {}),
    via: input.via,
    outcome: input.outcome,
    details: input.details,
    recordedAt: deps.clock.now().toISOString(),
  };
  await store.append(
    streams.operator(caller.workspaceId),
    [
      {
        eventId: actionId,
        type: 'OperatorActionRecorded',
        data,
        metadata: {
          correlationId: actionId,
          causationId: null,
          workspaceId: caller.workspaceId,
          actor: { kind: 'user', userId: caller.userId },
        },
      },
    ],
    'any',
  );
  return data;
}
