import { canonicalDigest } from '@lomo/contracts';
import type { CallQuote, PlanBudget, TaskState } from '@lomo/domain';
import type { PaymentMode } from '../account/account-commands';
import type { JobFacts } from '../job/job-state';

/** The person's decision on a paid call's own card, as the task stream holds it. */
export type CardDecision =
  | { state: 'none' }
  | { state: 'open' }
  | { state: 'rejected'; resolvedBy: string }
  | {
      state: 'approved';
      checkpointId: string;
      resolvedBy: string;
      /** What the card showed: the approval is for that order at that price only. */
      argumentsHash: string | null;
      callQuote: CallQuote | null;
    };

/**
 * What the task says about paying for one of its calls (DESIGN.md §5, article §8.4): the three
 * dimensions are kept apart. Autonomy and who directed the work decide the `mode`; the plan's
 * budgets are the money the person approved for the plan; the card is this call's own approval.
 */
export interface PaymentAuthority {
  mode: PaymentMode;
  /** Why `per_call`: the task asks before every paid step, an integration directed the work, or it is not running. */
  why: 'manual' | 'integration' | 'not_running' | 'assisted' | 'autonomous';
  card: CardDecision;
  /** Every plan budget the person approved on the task (PlanBudgetApproved, approved budget cards). */
  planBudgets: readonly PlanBudget[];
}

/**
 * Fail closed: a task that is not there or not running, one whose autonomy is "ask before every
 * paid step", and one an integration's message directed (its paid work is confirmed call by call)
 * all pay per call. Only the person's own resolution of the call's card counts: an agent's is not
 * folded into the task at all (libs/domain/src/task/task-evolve.ts).
 */
export function paymentAuthority(task: TaskState, callId: string, checkpointId: string): PaymentAuthority {
  if (task.status === 'none') return { mode: 'per_call', why: 'not_running', card: { state: 'none' }, planBudgets: [] };
  const card = cardDecision(task, checkpointId, callId);
  const planBudgets = task.budgets;
  if (task.status !== 'active' && task.status !== 'waiting')
    return { mode: 'per_call', why: 'not_running', card, planBudgets };
  if (task.autonomy === 'manual') return { mode: 'per_call', why: 'manual', card, planBudgets };
  if (task.directedBy === 'integration') return { mode: 'per_call', why: 'integration', card, planBudgets };
  if (task.autonomy === 'autonomous') return { mode: 'plan_or_limits', why: 'autonomous', card, planBudgets };
  return { mode: 'within_plan', why: 'assisted', card, planBudgets };
}

function cardDecision(
  task: Exclude<TaskState, { status: 'none' }>,
  checkpointId: string,
  callId: string,
): CardDecision {
  const card = task.checkpoints[checkpointId];
  if (card === undefined || card.kind !== 'approval' || card.callId !== callId) return { state: 'none' };
  const resolution = card.resolution;
  if (resolution === null) return { state: 'open' };
  if (resolution.decision !== 'approve') return { state: 'rejected', resolvedBy: resolution.resolvedBy };
  return {
    state: 'approved',
    checkpointId,
    resolvedBy: resolution.resolvedBy,
    argumentsHash: card.argumentsHash,
    callQuote: card.callQuote,
  };
}

/**
 * The sha-256 of a job's order as its card shows it (kind, operation, prompt, options, provider):
 * the card records it, and an approval is applied only to a job whose order hashes the same.
 */
export function orderHash(job: Pick<JobFacts, 'kind' | 'operation' | 'provider' | 'params'>): string {
  return canonicalDigest([job.kind, job.operation, job.provider, job.params.prompt, job.params.options]);
}

/**
 * Whether an approved card still authorizes this job: the order it showed and the price it showed
 * are the job's. A card that recorded neither (opened before cards did) authorizes its call id.
 */
export function cardMatchesJob(
  card: Extract<CardDecision, { state: 'approved' }>,
  job: Pick<JobFacts, 'kind' | 'operation' | 'provider' | 'params' | 'quote'>,
): { matches: true } | { matches: false; why: string } {
  if (card.argumentsHash !== null && card.argumentsHash !== orderHash(job))
    return { matches: false, why: 'the order it approved is not the order this job holds' };
  const q = card.callQuote;
  if (
    q !== null &&
    (q.quoteId !== job.quote.quoteId || q.amountMinor !== job.quote.amountMinor || q.currency !== job.quote.currency)
  )
    return {
      matches: false,
      why: `it approved ${q.amountMinor} ${q.currency}, the job is quoted ${job.quote.amountMinor} ${job.quote.currency}`,
    };
  return { matches: true };
}
