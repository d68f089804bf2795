import type { ChecklistItem, ExistingTask, OpenCheckpoint } from '@lomo/domain';
import { budgetCheckpointIdFor } from './derived-ids';

type MediaKind = Extract<NonNullable<ChecklistItem['output']>, { kind: 'media' }>['media'];

/** One checklist item's paid work: `count` generations of one media kind. */
export interface PaidWork {
  itemId: string;
  media: MediaKind;
  count: number;
}

/** The plan's paid work priced, in one currency. */
export interface PricedWork {
  currency: string;
  lines: ReadonlyArray<PaidWork & { amountMinor: number }>;
  /**
   * The workspace's standing approvals (its budgets and auto-approve limits, as last read) let
   * every one of these calls run without a card anyway: a budget card would ask for nothing.
   */
  coveredWithoutPlan?: boolean;
}

/**
 * Prices a plan's paid items as the generation providers quote one job of each kind at its
 * defaults (libs/generation's GenerationOrders.quotePlan). Undefined when it cannot (a kind no
 * provider makes, prices in several currencies): then no budget card is opened and each paid
 * call asks on its own. `prepare` reads what the answer depends on (the workspace's account)
 * before the runtime plans a turn's close, so `quotePlan` itself stays synchronous and pure.
 */
export interface PlanQuoter {
  prepare?(workspaceId: string): Promise<void>;
  quotePlan(work: readonly PaidWork[], workspaceId?: string): PricedWork | undefined;
}

export const PLAN_QUOTER = Symbol('PLAN_QUOTER');

/** The items of the plan that are paid generations (declared `media` output), except skipped ones. */
function paidWork(task: ExistingTask): PaidWork[] {
  return task.checklist.flatMap((item) =>
    item.output?.kind === 'media' && item.status !== 'skipped'
      ? [{ itemId: item.itemId, media: item.output.media, count: item.output.count }]
      : [],
  );
}

/**
 * A paid item comes next: it is not done, blocked or skipped, and what it depends on is done (a
 * reviewed stage counts once it is done: the budget card is shown with its review, so the person
 * answers both at once and the paid stage then runs without asking again).
 */
function paidItemComesNext(task: ExistingTask): boolean {
  return task.checklist.some(
    (item) =>
      item.output?.kind === 'media' &&
      item.status !== 'done' &&
      item.status !== 'blocked' &&
      item.status !== 'skipped' &&
      item.dependsOn.every((id) => {
        const dependency = task.checklist.find((i) => i.itemId === id);
        return dependency !== undefined && (dependency.status === 'done' || dependency.status === 'skipped');
      }),
  );
}

/**
 * Article §8.4's plan-level approval: when the next stage is paid and the budgets the person
 * approved for the plan do not cover the plan's paid items, the runtime quotes them ("3 video,
 * 1.20 USD") on a budget card; approving it approves the total once, and the calls within it then
 * run without cards of their own (libs/generation's `plan_approved` reservations). Only where the
 * task runs paid calls within a plan at all: a task that asks before every paid step, or that an
 * integration directed, asks call by call; and not where the workspace's own budgets and
 * auto-approve limits let every paid call run anyway (a card would ask for nothing). A card for the
 * same shortfall that exists already (open, approved, or declined) is not asked again; a changed
 * plan or a new approval is a new shortfall.
 */
export function budgetCard(
  task: ExistingTask,
  turnId: string,
  quoter: PlanQuoter | undefined,
  workspaceId?: string,
): OpenCheckpoint | undefined {
  if (quoter === undefined || task.autonomy === 'manual' || task.directedBy === 'integration') return undefined;
  const work = paidWork(task);
  if (work.length === 0 || !paidItemComesNext(task)) return undefined;
  const priced = quoter.quotePlan(work, workspaceId);
  if (priced === undefined || priced.lines.length === 0 || priced.coveredWithoutPlan === true) return undefined;
  const totalMinor = priced.lines.reduce((sum, line) => sum + line.amountMinor, 0);
  const approvedMinor = task.budgets
    .filter((b) => b.currency === priced.currency)
    .reduce((sum, b) => sum + b.amountMinor, 0);
  if (approvedMinor >= totalMinor) return undefined;
  const checkpointId = budgetCheckpointIdFor(task.taskId, priced.currency, totalMinor, approvedMinor);
  if (task.checkpoints[checkpointId] !== undefined) return undefined;
  const amountMinor = totalMinor - approvedMinor;
  return {
    type: 'OpenCheckpoint',
    checkpointId,
    turnId,
    kind: 'budget',
    question: budgetQuestion(priced, totalMinor, approvedMinor, amountMinor),
    planQuote: {
      amountMinor,
      currency: priced.currency,
      totalMinor,
      approvedMinor,
      lines: priced.lines.map((l) => ({ ...l })),
    },
  };
}

const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;

function budgetQuestion(priced: PricedWork, total: number, approved: number, amount: number): string {
  const items = priced.lines.map((l) => `${l.count} ${l.media} (${l.itemId})`).join(', ');
  const before = approved > 0 ? `, ${money(approved, priced.currency)} of it approved already` : '';
  return (
    `The plan's paid work: ${items}, ${money(total, priced.currency)}${before}. ` +
    `Approve ${money(amount, priced.currency)} for this plan, and its generations run without asking one by one; ` +
    `more than that asks again.`
  ).slice(0, 4000);
}
