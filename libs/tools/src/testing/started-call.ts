import { randomUUID } from 'node:crypto';
import { streams, type Clock } from '@lomo/contracts';
import { turnDecider, type TurnCommand, type TurnEvent, type TurnState } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import type { ToolContext } from '../tool.port';

/**
 * Writes what the runtime has on a turn stream by the time a tool runs: the turn, its lease, the
 * step that intended the call and the call's start. Async completions are decided against that
 * ledger (a completion of a call that never started is refused), so tests of async tools seed it.
 * A repeat for the same call writes nothing.
 */
export async function seedStartedCall(
  store: EventStore,
  context: Pick<ToolContext, 'taskId' | 'turnId' | 'step' | 'callId' | 'workspaceId'>,
  tool: string,
  clock: Clock = { now: () => new Date() },
): Promise<void> {
  const stream = streams.turn(context.turnId);
  const existing = await store.readStream(stream);
  if (existing.some((e) => e.type === 'ToolCallStarted' && (e.data as { callId: string }).callId === context.callId))
    return;
  const commands: TurnCommand[] = [];
  if (existing.length === 0) {
    commands.push({ type: 'StartTurn', turnId: context.turnId, taskId: context.taskId, reason: 'message' });
    commands.push({ type: 'TakeLease', workerId: 'test-worker', now: clock.now().toISOString(), leaseMs: 3_600_000 });
  }
  let state: TurnState = existing
    .map((e) => ({ type: e.type, data: e.data }) as TurnEvent)
    .reduce(turnDecider.evolve, turnDecider.initialState());
  const events: TurnEvent[] = [];
  const run = (command: TurnCommand) => {
    for (const event of turnDecider.decide(command, state)) {
      state = turnDecider.evolve(state, event);
      events.push(event);
    }
  };
  commands.forEach(run);
  const generation = state.status === 'none' ? 1 : state.generation;
  run({
    type: 'CommitStep',
    generation,
    step: context.step,
    reply: 'Exporting.',
    toolCallIntents: [{ callId: context.callId, tool, arguments: {} }],
    consumedItemIds: [],
    usage: { inputTokens: 1, outputTokens: 1 },
    promptRef: { hash: 'a'.repeat(64), bytes: 1, contentType: 'application/json' },
    finishReason: 'tool_calls',
  });
  run({ type: 'StartToolCall', generation, callId: context.callId, attempt: 1 });
  await store.append(
    stream,
    events.map((event) => ({
      eventId: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: {
        correlationId: 'seed',
        causationId: null,
        workspaceId: context.workspaceId,
        actor: { kind: 'system', component: 'executor' },
        generation,
      },
    })),
    existing.length === 0 ? 'no_stream' : existing[existing.length - 1].metadata.revision,
  );
}
