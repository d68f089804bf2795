import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { z } from 'zod';
import { ConsistentArgs, ConsistentPageArgs } from './query.args';
import { consistentWith, entityId, pageArgs } from './input-schemas';

@ArgsType()
export class GenerationJobsArgs extends ConsistentArgs {
  @Field(() => ID, { description: 'A task of your workspace.' })
  taskId!: string;
}

@ArgsType()
export class GenerationProgressArgs {
  @Field(() => ID, { description: 'A task of your workspace.' })
  taskId!: string;
}

@ArgsType()
export class AccountLedgerArgs extends ConsistentPageArgs {}

@ArgsType()
export class ApproveQuoteArgs {
  @Field(() => ID, { description: 'The quote a job is waiting on (GenerationJob.quote.quoteId).' })
  quoteId!: string;
}

export const generationJobsArgsSchema = z.strictObject({ taskId: entityId, consistentWith });
export const generationProgressArgsSchema = z.strictObject({ taskId: entityId });
export const accountArgsSchema = z.strictObject({ consistentWith });
export const accountLedgerArgsSchema = z.strictObject({ ...pageArgs, consistentWith });
export const approveQuoteArgsSchema = z.strictObject({ quoteId: entityId });

@ArgsType()
export class ApproveBudgetArgs {
  @Field(() => Int, { description: 'The budget, in integer minor units of the currency (cents for USD).' })
  amountMinor!: number;

  @Field(() => String, { description: 'ISO 4217 code, e.g. USD.' })
  currency!: string;

  @Field(() => ID, { nullable: true, description: 'A task of your workspace the budget is for; none: the workspace.' })
  taskId?: string;

  @Field(() => String, {
    description: 'Your key for this approval: a retry with the same key approves one budget, never two.',
  })
  requestKey!: string;
}

@ArgsType()
export class SetSpendingLimitsArgs {
  @Field(() => String, { description: 'ISO 4217 code of the limits, e.g. USD.' })
  currency!: string;

  @Field(() => Int, { description: 'Quotes up to this (minor units) are approved without asking.' })
  perCallAutoApproveMinor!: number;

  @Field(() => Int, { description: 'Auto-approved money per day (minor units); above it every quote asks.' })
  dailyAutoApproveMinor!: number;

  @Field(() => String, { description: 'IANA time zone whose calendar day the daily limit counts, e.g. Europe/Paris.' })
  timeZone!: string;
}

const minorAmount = z.number().int().min(0).max(1_000_000_000_000);
export const approveBudgetArgsSchema = z.strictObject({
  amountMinor: minorAmount,
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD'),
  taskId: entityId.optional().nullable(),
  requestKey: z.string().min(1).max(200),
});
export const setSpendingLimitsArgsSchema = z.strictObject({
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD'),
  perCallAutoApproveMinor: minorAmount,
  dailyAutoApproveMinor: minorAmount,
  timeZone: z.string().min(1).max(100),
});
