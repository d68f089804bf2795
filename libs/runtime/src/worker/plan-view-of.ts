import type { ToolRegistry } from '@lomo/tools';
import type { WakeReason } from '@lomo/domain';
import type { Authorization, PlanView } from '../process/plan-view';
import type { RuntimeDeps } from './runtime-deps';
import type { TurnSession } from './turn-session';

/** The planner's view of a session, read at this instant. */
export function planViewOf(deps: RuntimeDeps, session: TurnSession, wakeReason: WakeReason): PlanView {
  const task = session.task.existing;
  if (task === undefined) throw new Error(`Task ${session.taskId} vanished from its own session`);
  return {
    now: deps.clock.now().toISOString(),
    workerId: deps.options.workerId,
    leaseMs: deps.options.leaseMs,
    maxSteps: deps.options.maxStepsPerTurn,
    continuation: {
      maxAutoTurns: deps.options.maxAutoTurns,
      maxTurnsWithoutProgress: deps.options.maxTurnsWithoutProgress,
    },
    generation: session.generation,
    wakeReason,
    taskId: session.taskId,
    workspaceId: session.workspaceId,
    turnId: session.turnId,
    turn: session.turn.state,
    turnRevision: session.turn.revision,
    task,
    taskRevision: session.task.revision === 'no_stream' ? -1 : session.task.revision,
    traits: (tool) => traitsOf(deps.tools, tool),
    authorize: (tool, callId) => authorize(deps.tools, tool, callId, session),
    localCalls: session.localCalls,
    ...(deps.planQuoter !== undefined ? { planQuoter: deps.planQuoter } : {}),
    ...(deps.testControl !== undefined ? { mutation: (name) => deps.testControl!.mutation(name) } : {}),
  };
}

function traitsOf(tools: ToolRegistry, name: string) {
  const definition = tools.get(name);
  if (definition === undefined) return undefined;
  return {
    idempotent: definition.idempotent,
    domain: definition.domain,
    async: definition.async === true,
    ...(definition.progress !== undefined ? { progress: definition.progress } : {}),
  };
}

function authorize(tools: ToolRegistry, name: string, callId: string, session: TurnSession): Authorization {
  const decision = tools.authorize(name, callId, { has: (id) => session.task.approved(id) });
  return decision.decision === 'allowed' ? decision : { decision: 'needs_approval', question: decision.question };
}
