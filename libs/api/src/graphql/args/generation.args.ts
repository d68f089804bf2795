import { ArgsType, Field, ID } from '@nestjs/graphql';
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
