import type { TestControl } from '@lomo/contracts';
import type { ExistingTask, TurnState, WakeReason } from '@lomo/domain';
import type { ToolProgress } from '@lomo/tools';
import type { ContinuationLimits } from './plan-continuation';
import type { PlanQuoter } from './plan-budget';

export interface ToolTraits {
  idempotent: boolean;
  /** Its domain: a call outside the domains its step could call is refused (TOOL_NOT_VISIBLE). */
  domain?: string;
  async: boolean;
  /** What an ok result counts as for the continuation decision; absent: not progress. */
  progress?: ToolProgress;
}

export type Authorization = { decision: 'allowed' } | { decision: 'needs_approval'; question: string };

/** What this session did with a call that the ledger cannot tell (it only says "started"). */
export type LocalCallState = 'started' | 'pending';

/** Everything the coordinating decider looks at: pure data and pure lookups, no I/O. */
export interface PlanView {
  /** ISO 8601, from the worker's clock. */
  now: string;
  workerId: string;
  leaseMs: number;
  maxSteps: number;
  continuation: ContinuationLimits;
  /** The generation this worker holds; 0 before it took the lease. */
  generation: number;
  wakeReason: WakeReason;
  taskId: string;
  /** The task's workspace (what the plan's quote reads the account of). */
  workspaceId?: string;
  turnId: string;
  turn: TurnState;
  turnRevision: number | 'no_stream';
  task: ExistingTask;
  taskRevision: number;
  traits(tool: string): ToolTraits | undefined;
  /** From recorded approval events only (never from what the model wrote). */
  authorize(tool: string, callId: string): Authorization;
  localCalls: ReadonlyMap<string, LocalCallState>;
  /** Prices the plan's paid items for its budget card; absent: no budget cards (each paid call asks). */
  planQuoter?: PlanQuoter;
  /** Drills' mutation switches (libs/platform/src/test-control/README.md); absent: every safeguard on. */
  mutation?: TestControl['mutation'];
}
