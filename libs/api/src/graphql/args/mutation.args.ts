import { ArgsType, Field, ID, registerEnumType } from '@nestjs/graphql';
import { z } from 'zod';
import { languageTag } from '@lomo/contracts';
import { entityId, messageText, optional, reason } from './input-schemas';

@ArgsType()
export class SendMessageArgs {
  @Field(() => String)
  text!: string;

  @Field(() => ID, { nullable: true, description: 'Send to this task explicitly.' })
  taskId?: string | null;

  @Field(() => String, { nullable: true, description: '`artifact:<uuid>[@version][#node]`.' })
  artifactRef?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Your id for this message: a retry with it returns the first result.',
  })
  clientMessageId?: string | null;

  @Field(() => String, { nullable: true, description: 'BCP 47 tag; detected from the text when absent.' })
  language?: string | null;
}

@ArgsType()
export class WithdrawMessageArgs {
  @Field(() => ID)
  messageId!: string;
}

@ArgsType()
export class ReplaceMessageArgs {
  @Field(() => ID)
  messageId!: string;

  @Field(() => String)
  text!: string;

  @Field(() => String, { nullable: true, description: 'BCP 47 tag; detected from the text when absent.' })
  language?: string | null;
}

@ArgsType()
export class TaskArgs {
  @Field(() => ID)
  taskId!: string;
}

@ArgsType()
export class TaskWithReasonArgs extends TaskArgs {
  @Field(() => String, { nullable: true })
  reason?: string | null;
}

export const withdrawMessageSchema = z.strictObject({ messageId: entityId });
export const replaceMessageSchema = z.strictObject({
  messageId: entityId,
  text: messageText,
  language: optional(languageTag),
});
export const taskSchema = z.strictObject({ taskId: entityId });
export const taskWithReasonSchema = z.strictObject({ taskId: entityId, reason: optional(reason) });

@ArgsType()
export class AnswerClarificationArgs {
  @Field(() => ID)
  cardId!: string;

  @Field(() => String, { nullable: true, description: "One of the card's options; or give `text`." })
  optionId?: string | null;

  @Field(() => String, { nullable: true, description: 'An answer in your own words; or give `optionId`.' })
  text?: string | null;
}

@ArgsType()
export class MoveMessageArgs {
  @Field(() => ID)
  messageId!: string;

  @Field(() => ID)
  toTaskId!: string;
}

@ArgsType()
export class MergeTasksArgs {
  @Field(() => ID, { description: 'The task merged away: archived, pointing at the target.' })
  sourceId!: string;

  @Field(() => ID)
  targetId!: string;
}

const optionId = z.string().regex(/^[a-z0-9_-]{1,64}$/, '1-64 of [a-z0-9_-]');

export const answerClarificationSchema = z
  .strictObject({ cardId: entityId, optionId: optional(optionId), text: optional(messageText) })
  .refine((a) => (a.optionId === undefined) !== (a.text === undefined), {
    message: 'give exactly one of optionId and text',
    path: ['optionId'],
  });
export const moveMessageSchema = z.strictObject({ messageId: entityId, toTaskId: entityId });
export const mergeTasksSchema = z.strictObject({ sourceId: entityId, targetId: entityId });

/** GraphQL names upper case, values the domain's decisions. */
export const CheckpointDecision = { APPROVE: 'approve', REJECT: 'reject', ANSWER: 'answer' } as const;
export type CheckpointDecision = (typeof CheckpointDecision)[keyof typeof CheckpointDecision];
registerEnumType(CheckpointDecision, {
  name: 'CheckpointDecision',
  description: 'APPROVE or REJECT an approval (or review); ANSWER a question with `note` as the answer.',
});

@ArgsType()
export class ResolveCheckpointArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => ID)
  checkpointId!: string;

  @Field(() => CheckpointDecision)
  decision!: CheckpointDecision;

  @Field(() => String, { nullable: true, description: 'Why, or (ANSWER) the answer itself.' })
  note?: string | null;
}

export const resolveCheckpointSchema = z
  .strictObject({
    taskId: entityId,
    checkpointId: entityId,
    decision: z.enum(['approve', 'reject', 'answer']),
    note: optional(z.string().trim().min(1).max(2_000)),
  })
  .refine((a) => a.decision !== 'answer' || a.note !== undefined, {
    message: 'an ANSWER carries its text in note',
    path: ['note'],
  });
