import type { EventEnvelope } from '@lomo/contracts';

/** What the event store says about one turn: the truth the read models are compared with. */
export interface TurnFacts {
  turnId: string;
  taskId: string | undefined;
  leases: Array<{ workerId: string; generation: number }>;
  /** Every ModelStepCommitted's step, in store order. */
  steps: number[];
  /** Every ToolCallStarted: call id, tool, writer's generation. */
  started: Array<{ callId: string; tool: string; generation: number | undefined }>;
  /** Every ToolCallCompleted: call id, status. */
  completed: Array<{ callId: string; status: string }>;
  /** Generations that wrote any event to the turn stream. */
  writerGenerations: Set<number>;
  /** The last event's type (TurnCompleted once it ended well). */
  lastType: string | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const dataOf = (event: EventEnvelope): Record<string, unknown> =>
  typeof event.data === 'object' && event.data !== null ? (event.data as Record<string, unknown>) : {};

/** Folds every `turn-*` event into per-turn facts. */
export function turnFacts(events: readonly EventEnvelope[]): Map<string, TurnFacts> {
  const turns = new Map<string, TurnFacts>();
  for (const event of events) {
    const streamId = event.metadata.streamId;
    if (!streamId.startsWith('turn-')) continue;
    const turnId = streamId.slice('turn-'.length);
    let facts = turns.get(turnId);
    if (facts === undefined) {
      facts = {
        turnId,
        taskId: undefined,
        leases: [],
        steps: [],
        started: [],
        completed: [],
        writerGenerations: new Set(),
        lastType: undefined,
      };
      turns.set(turnId, facts);
    }
    const data = dataOf(event);
    const generation = event.metadata.generation;
    if (generation !== undefined) facts.writerGenerations.add(generation);
    facts.lastType = event.type;
    switch (event.type) {
      case 'TurnStarted':
        facts.taskId = str(data.taskId);
        break;
      case 'TurnLeased':
        facts.leases.push({ workerId: str(data.workerId) ?? '', generation: num(data.generation) ?? 0 });
        break;
      case 'ModelStepCommitted':
        facts.steps.push(num(data.step) ?? -1);
        break;
      case 'ToolCallStarted':
        facts.started.push({ callId: str(data.callId) ?? '', tool: str(data.tool) ?? '', generation });
        break;
      case 'ToolCallCompleted':
        facts.completed.push({ callId: str(data.callId) ?? '', status: str(data.status) ?? '' });
        break;
      default:
        break;
    }
  }
  return turns;
}

/**
 * The calls started under a lease of `workerId` that have no result yet: the moment a drill
 * wants to kill that worker (it is inside the tool).
 */
export function callsInFlight(
  turns: Map<string, TurnFacts>,
  workerId: string,
): Array<{ turnId: string; callId: string; tool: string }> {
  const out: Array<{ turnId: string; callId: string; tool: string }> = [];
  for (const facts of turns.values()) {
    const holder = facts.leases[facts.leases.length - 1];
    if (holder?.workerId !== workerId) continue;
    const done = new Set(facts.completed.map((c) => c.callId));
    for (const call of facts.started) {
      if (call.generation === holder.generation && !done.has(call.callId)) {
        out.push({ turnId: facts.turnId, callId: call.callId, tool: call.tool });
      }
    }
  }
  return out;
}

/** Turn ids per task, from the task streams' TurnOpened events. */
export function turnsOfTasks(events: readonly EventEnvelope[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const event of events) {
    if (!event.metadata.streamId.startsWith('task-') || event.type !== 'TurnOpened') continue;
    const taskId = event.metadata.streamId.slice('task-'.length);
    const turnId = str(dataOf(event).turnId);
    if (turnId !== undefined) out.set(taskId, [...(out.get(taskId) ?? []), turnId]);
  }
  return out;
}
