import { deterministicUuid } from '@lomo/contracts';

/**
 * The budget an approved budget card stands for: its id derives from the card, so the task's
 * plan budget and the account's money for it (written by the generation service before it
 * reserves, libs/generation) are one budget, however often either is written.
 */
export const planBudgetIdForCard = (checkpointId: string): string =>
  deterministicUuid('lomo.task.plan-budget', checkpointId);
