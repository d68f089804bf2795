import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from './connection';

// Money is integer minor units (cents) with an ISO 4217 currency, as on the account stream.

@ObjectType({ description: 'The price of a job, fixed before anything is reserved or sent.' })
export class GenerationQuoteView {
  @Field(() => ID)
  quoteId!: string;

  @Field(() => Int)
  amountMinor!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => Number)
  units!: number;

  @Field(() => String, { description: 'What a unit is: `image`, `second`, …' })
  unit!: string;
}

@ObjectType()
export class GenerationFailureView {
  @Field(() => String, {
    description: '`rejected`, `outcome_unknown`, `submit_timeout`, `upstream_failed`, `cancelled` or `declined`.',
  })
  reason!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType({ description: 'A paid media job of a task.' })
export class GenerationJob {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  taskId!: string;

  @Field(() => String)
  callId!: string;

  @Field(() => String)
  provider!: string;

  @Field(() => String, { description: '`image`, `video`, `3d` or `audio`.' })
  kind!: string;

  @Field(() => String)
  operation!: string;

  @Field(() => String, {
    description:
      '`awaiting_approval` (approve its quote with approveQuote), `requested`, `submitted`, `completed` or `failed`.',
  })
  phase!: string;

  @Field(() => Int, { description: 'The latest reported progress, 0 to 100; 100 once completed.' })
  progress!: number;

  @Field(() => GenerationQuoteView)
  quote!: GenerationQuoteView;

  @Field(() => Int, { nullable: true, description: 'What was charged for it; null while nothing was.' })
  chargedMinor!: number | null;

  @Field(() => Int, { nullable: true, description: 'What was refunded (the whole charge); null if nothing.' })
  refundedMinor!: number | null;

  @Field(() => ID, { nullable: true, description: 'The artefact its result became, once completed.' })
  artifactId!: string | null;

  @Field(() => GenerationFailureView, { nullable: true })
  failure!: GenerationFailureView | null;

  @Field(() => String)
  requestedAt!: string;

  @Field(() => String)
  updatedAt!: string;
}

@ObjectType({ description: 'One currency of the account.' })
export class AccountCurrency {
  @Field(() => String)
  currency!: string;

  @Field(() => Int, { description: 'The sum of the budgets people approved.' })
  approvedBudgetMinor!: number;

  @Field(() => Int, { description: 'Held for jobs not submitted yet.' })
  reservedMinor!: number;

  @Field(() => Int, { description: 'Charged minus refunded.' })
  spentMinor!: number;

  @Field(() => Int)
  refundedMinor!: number;

  @Field(() => Int, { description: 'Approved budgets minus reserved and spent.' })
  availableMinor!: number;
}

@ObjectType({ description: 'Auto-approved spending of the workspace’s current day (in its time zone).' })
export class AccountDailyUse {
  @Field(() => String, { description: 'YYYY-MM-DD' })
  day!: string;

  @Field(() => String)
  currency!: string;

  @Field(() => Int)
  usedMinor!: number;

  @Field(() => Int)
  limitMinor!: number;

  @Field(() => Int)
  remainingMinor!: number;
}

@ObjectType({ description: 'Your workspace’s money for paid generation.' })
export class Account {
  @Field(() => [AccountCurrency])
  currencies!: AccountCurrency[];

  @Field(() => AccountDailyUse, { nullable: true, description: 'Null while no spending limits were set.' })
  daily!: AccountDailyUse | null;

  @Field(() => Int, { nullable: true, description: 'Up to this much per call is approved without asking.' })
  perCallAutoApproveMinor!: number | null;

  @Field(() => [ID], { description: 'Quotes waiting on a person’s approval.' })
  pendingQuoteIds!: string[];
}

@ObjectType({ description: 'One entry of the account’s ledger.' })
export class LedgerEntry {
  @Field(() => ID)
  id!: string;

  @Field(() => String, {
    description: '`reservation`, `release`, `charge`, `refund`, `quote_approved` or `budget_approved`.',
  })
  kind!: string;

  @Field(() => ID, { nullable: true })
  jobId!: string | null;

  @Field(() => Int)
  amountMinor!: number;

  @Field(() => String)
  currency!: string;

  @Field(() => String)
  at!: string;
}

export const LedgerEntryConnection = Connection('LedgerEntry', LedgerEntry);

@ObjectType()
export class ApproveQuotePayload {
  @Field(() => ID)
  quoteId!: string;

  @Field(() => ID)
  jobId!: string;

  @Field(() => Boolean, { description: 'False when the quote was approved already (a repeat changes nothing).' })
  changed!: boolean;

  @Field(() => String, {
    description: 'Pass as `consistentWith` to a query to read only once the read models show this change.',
  })
  consistencyToken!: string;
}

@ObjectType({ description: 'The answer to approveBudget and setSpendingLimits.' })
export class AccountSettingPayload {
  @Field(() => Boolean, { description: 'False on a repeat (the same request key, the same limits): nothing changed.' })
  changed!: boolean;

  @Field(() => String, {
    description: 'Pass as `consistentWith` to `account` to read only once the read models show this change.',
  })
  consistencyToken!: string;
}

@ObjectType({ description: 'A job of the task, each time it changes.' })
export class GenerationProgressUpdate {
  @Field(() => GenerationJob)
  job!: GenerationJob;
}
