import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { z } from 'zod';
import { generationEvents, languageTag } from '@lomo/contracts';
import { AutonomyLevel, CheckpointDecision, ChecklistItemStatus, ChecklistOutputKind } from '../types/enums';
import { clientMessageId, entityId, messageText, optional, reason } from './input-schemas';

export { CheckpointDecision };

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

@ArgsType()
export class ResolveCheckpointArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => ID)
  checkpointId!: string;

  @Field(() => CheckpointDecision)
  decision!: CheckpointDecision;

  @Field(() => String, {
    nullable: true,
    description: 'Why; for ANSWER the answer itself, for ADJUST how to redo the stage (required for both).',
  })
  note?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "CHOOSE only (and required there): the optionId of one of the card's options.",
  })
  choice?: string | null;
}

/** A checklist item id or a card's option id: the contracts' slug. */
const slug = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, '1-64 of [a-z0-9_-], starting with a letter or digit');
const note = z.string().trim().min(1).max(2_000);

export const resolveCheckpointSchema = z
  .strictObject({
    taskId: entityId,
    checkpointId: entityId,
    decision: z.enum(['approve', 'reject', 'answer', 'adjust', 'choose']),
    note: optional(note),
    choice: optional(slug),
  })
  .refine((a) => a.decision !== 'answer' || a.note !== undefined, {
    message: 'an ANSWER carries its text in note',
    path: ['note'],
  })
  .refine((a) => a.decision !== 'adjust' || a.note !== undefined, {
    message: 'an ADJUST says in note how to redo the stage',
    path: ['note'],
  })
  .refine((a) => a.decision !== 'choose' || a.choice !== undefined, {
    message: "a CHOOSE names one of the card's options in choice",
    path: ['choice'],
  })
  .refine((a) => a.decision === 'choose' || a.choice === undefined, {
    message: 'choice goes only with CHOOSE',
    path: ['choice'],
  });

@ArgsType()
export class EditBriefArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => String, { description: 'The whole brief, as it should read (at most 20000 characters).' })
  brief!: string;
}

export const editBriefSchema = z.strictObject({
  taskId: entityId,
  brief: z.string().trim().min(1, 'a brief is not blank').max(20_000),
});

@InputType({ description: 'What a checklist item delivers: its evidence must be of this kind to count.' })
export class ChecklistItemOutputInput {
  @Field(() => ChecklistOutputKind)
  kind!: ChecklistOutputKind;

  @Field(() => String, { nullable: true, description: 'MEDIA only (and required there): image, video, 3d or audio.' })
  media?: string | null;

  @Field(() => Int, { nullable: true, description: 'MEDIA only (and required there): how many jobs, 1 to 20.' })
  count?: number | null;
}

@InputType({ description: 'One item of the checklist as you plan it.' })
export class ChecklistItemInput {
  @Field(() => ID, { description: 'Keep an existing id to keep its status and evidence; 1-64 of [a-z0-9_-].' })
  itemId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => [ID], { nullable: true, description: 'Ids of items of this plan that come first.' })
  dependsOn?: string[] | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'You review this stage before anything after it runs (a review card opens once it is done).',
  })
  needsConfirmation?: boolean | null;

  @Field(() => ChecklistItemOutputInput, {
    nullable: true,
    description: 'What the item delivers; without one, any evidence shows it done.',
  })
  output?: ChecklistItemOutputInput | null;
}

@ArgsType()
export class EditChecklistArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => [ChecklistItemInput], { description: 'The whole plan, 1 to 100 items, in order.' })
  items!: ChecklistItemInput[];
}

/**
 * An item's output as the contracts take it (ChecklistPlanned): MEDIA names its media kind and
 * count, ARTIFACT and DECISION name neither (null or absent).
 */
const absent = z.null().optional();
const checklistItemOutput = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('artifact'), media: absent, count: absent }),
    z.strictObject({ kind: z.literal('decision'), media: absent, count: absent }),
    z.strictObject({
      kind: z.literal('media'),
      media: generationEvents.mediaKind,
      count: z.number().int().min(1, 'at least 1 job').max(20, 'at most 20 jobs'),
    }),
  ])
  .transform((o) => (o.kind === 'media' ? { kind: o.kind, media: o.media, count: o.count } : { kind: o.kind }));

export const editChecklistSchema = z
  .strictObject({
    taskId: entityId,
    items: z
      .array(
        z.strictObject({
          itemId: slug,
          title: z.string().trim().min(1).max(500),
          dependsOn: z
            .array(slug)
            .max(50)
            .nullish()
            .transform((v) => v ?? []),
          needsConfirmation: optional(z.boolean()),
          output: optional(checklistItemOutput),
        }),
      )
      .min(1, 'a plan has at least one item')
      .max(100),
  })
  .superRefine((a, ctx) => {
    const ids = new Set<string>();
    a.items.forEach((item, i) => {
      if (ids.has(item.itemId)) ctx.addIssue({ code: 'custom', message: 'item ids are unique', path: ['items', i] });
      ids.add(item.itemId);
    });
    a.items.forEach((item, i) => {
      item.dependsOn.forEach((d, j) => {
        if (!ids.has(d))
          ctx.addIssue({
            code: 'custom',
            message: `depends on ${d}, which is not an item of this plan`,
            path: ['items', i, 'dependsOn', j],
          });
      });
    });
  });

@ArgsType()
export class SetChecklistItemStatusArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => ID)
  itemId!: string;

  @Field(() => ChecklistItemStatus)
  status!: ChecklistItemStatus;

  @Field(() => String, { nullable: true, description: 'Why, e.g. what blocks it (at most 2000 characters).' })
  note?: string | null;
}

export const setChecklistItemStatusSchema = z.strictObject({
  taskId: entityId,
  itemId: slug,
  status: z.enum(['pending', 'in_progress', 'done', 'blocked', 'skipped']),
  note: optional(note),
});

@ArgsType()
export class SetAutonomyArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => AutonomyLevel)
  level!: AutonomyLevel;
}

export const setAutonomySchema = z.strictObject({
  taskId: entityId,
  level: z.enum(['manual', 'assisted', 'autonomous']),
});

@ArgsType()
export class ApprovePlanBudgetArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => Int, {
    description: 'The budget in integer minor units of the currency (cents for USD), 1 to 100000000.',
  })
  amountMinor!: number;

  @Field(() => String, { description: 'ISO 4217 code, e.g. USD.' })
  currency!: string;

  @Field(() => String, {
    description:
      'Your key for this approval (1-128 of [A-Za-z0-9_.:-]): a retry with the same key approves one budget, never two.',
  })
  idempotencyKey!: string;
}

export const approvePlanBudgetSchema = z.strictObject({
  taskId: entityId,
  amountMinor: z.number().int().min(1, 'a budget is at least 1 minor unit').max(100_000_000),
  currency: z.string().regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as USD'),
  idempotencyKey: clientMessageId,
});
