import type { EventEnvelope } from '@lomo/contracts';
import { dataOf, finding, idOf, type Finding } from './collaboration-log';

export interface CostFigures {
  /** Charged minus refunded, per currency, in minor units. */
  spentMinor: Record<string, number>;
  /** Approved: plan budgets, approved quotes, and what the person's limits let through, per currency. */
  approvedMinor: Record<string, number>;
  /** Spent beyond what was approved, per currency (0 is the ideal). */
  overMinor: Record<string, number>;
  findings: Finding[];
}

interface Money {
  jobId: string;
  amountMinor: number;
  currency: string;
}

const add = (into: Record<string, number>, currency: string, amount: number) => {
  into[currency] = (into[currency] ?? 0) + amount;
};

/**
 * Money spent against money approved, from the account ledger (the `account-` stream) and the
 * tasks' plan budgets. Each charge is checked against its reservation's authority: a quote the
 * person approved or an automatic approval under the person's limits covers its reservation's
 * amount; a plan-approved one draws on its task's approved plan budgets (PlanBudgetApproved on
 * the task, BudgetApproved for the task on the account, one per budget id), summed. A charge with no reservation is spent without approval. Refunds give money back.
 */
export function costOverBudget(events: readonly EventEnvelope[]): CostFigures {
  const findings: Finding[] = [];
  const taskOfJob = new Map<string, string>();
  const reservation = new Map<string, Money & { authorization: string }>();
  const charged = new Map<string, Money & { at: EventEnvelope }>();
  const refunded = new Map<string, number>();
  const planBudgets = new Map<string, { taskId: string; amountMinor: number; currency: string }>();
  for (const e of events) {
    switch (e.type) {
      case 'GenerationRequested': {
        const job = dataOf<{ jobId: string; taskId: string }>(e);
        taskOfJob.set(job.jobId, job.taskId);
        break;
      }
      case 'FundsReserved':
        reservation.set(dataOf<Money>(e).jobId, dataOf<Money & { authorization: string }>(e));
        break;
      case 'JobCharged':
        charged.set(dataOf<Money>(e).jobId, { ...dataOf<Money>(e), at: e });
        break;
      case 'JobRefunded': {
        const m = dataOf<Money>(e);
        refunded.set(m.jobId, (refunded.get(m.jobId) ?? 0) + m.amountMinor);
        break;
      }
      case 'PlanBudgetApproved': {
        // The task's record of its plan budget; the account's BudgetApproved may record the same budget.
        const taskId = idOf(e.metadata.streamId, 'task');
        const b = dataOf<{ budgetId: string; amountMinor: number; currency: string }>(e);
        if (taskId !== null) planBudgets.set(b.budgetId, { taskId, amountMinor: b.amountMinor, currency: b.currency });
        break;
      }
      case 'BudgetApproved': {
        const b = dataOf<{ budgetId: string; taskId?: string; jobId?: string; amountMinor: number; currency: string }>(
          e,
        );
        if (b.taskId !== undefined && b.jobId === undefined)
          planBudgets.set(b.budgetId, { taskId: b.taskId, amountMinor: b.amountMinor, currency: b.currency });
        break;
      }
    }
  }
  const spentMinor: Record<string, number> = {};
  const approvedMinor: Record<string, number> = {};
  const overMinor: Record<string, number> = {};
  const planSpent = new Map<string, Record<string, number>>();
  const planBudget = new Map<string, Record<string, number>>();
  for (const b of planBudgets.values()) {
    const budgets = planBudget.get(b.taskId) ?? {};
    add(budgets, b.currency, b.amountMinor);
    planBudget.set(b.taskId, budgets);
  }
  for (const [jobId, charge] of charged) {
    const spent = charge.amountMinor - (refunded.get(jobId) ?? 0);
    add(spentMinor, charge.currency, spent);
    const reserved = reservation.get(jobId);
    const taskId = taskOfJob.get(jobId) ?? null;
    if (reserved === undefined) {
      add(overMinor, charge.currency, spent);
      findings.push(finding(charge.at, taskId, `job ${jobId} charged ${spent} ${charge.currency} with no reservation`));
    } else if (reserved.authorization === 'plan_approved' && taskId !== null) {
      const drawn = planSpent.get(taskId) ?? {};
      add(drawn, charge.currency, spent);
      planSpent.set(taskId, drawn);
    } else {
      add(approvedMinor, charge.currency, reserved.amountMinor);
      if (spent > reserved.amountMinor) {
        add(overMinor, charge.currency, spent - reserved.amountMinor);
        findings.push(finding(charge.at, taskId, `job ${jobId} charged ${spent}, approved ${reserved.amountMinor}`));
      }
    }
  }
  for (const budgets of planBudget.values())
    for (const [currency, amount] of Object.entries(budgets)) add(approvedMinor, currency, amount);
  for (const [taskId, drawn] of planSpent)
    for (const [currency, amount] of Object.entries(drawn)) {
      const budget = planBudget.get(taskId)?.[currency] ?? 0;
      if (amount > budget) {
        add(overMinor, currency, amount - budget);
        const last = [...charged.values()].filter((c) => taskOfJob.get(c.jobId) === taskId).at(-1)!;
        findings.push(finding(last.at, taskId, `plan spent ${amount} ${currency}, approved ${budget}`));
      }
    }
  return { spentMinor, approvedMinor, overMinor, findings };
}
