import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { z } from 'zod';
import { entityId, optional } from './input-schemas';

/** Matches per search at most: an operator's search is a scan (see `searchTasks`). */
export const OPERATOR_TASKS_MAX = 200;
const workspaceIdPattern = /^[a-z0-9][a-z0-9_]{0,62}$/;

@ArgsType()
export class OperatorTasksArgs {
  @Field(() => String, {
    nullable: true,
    description:
      "Words that must all appear in the task's id, workspace, goal or summary (any case); absent = every task.",
  })
  search?: string | null;

  @Field(() => ID, { nullable: true, description: 'Only this workspace; absent = every workspace.' })
  workspaceId?: string | null;

  @Field(() => Int, { defaultValue: 20, description: `Tasks to return, 1 to ${OPERATOR_TASKS_MAX}.` })
  first!: number;
}

@ArgsType()
export class OperatorTaskInspectionArgs {
  @Field(() => ID)
  taskId!: string;

  @Field(() => Boolean, {
    defaultValue: false,
    description:
      "Load every step's archived prompt from the blob store (heavier); `InspectedStep.prompt` is null otherwise.",
  })
  prompts!: boolean;
}

@ArgsType()
export class OperatorTurnInspectionArgs {
  @Field(() => ID)
  turnId!: string;

  @Field(() => Boolean, {
    defaultValue: false,
    description: "Load every step's archived prompt from the blob store; `InspectedStep.prompt` is null otherwise.",
  })
  prompts!: boolean;
}

export const operatorTasksSchema = z.strictObject({
  search: optional(z.string().trim().max(500)),
  workspaceId: optional(z.string().regex(workspaceIdPattern, 'a workspace id')),
  first: z.number().int().min(1).max(OPERATOR_TASKS_MAX).default(20),
});
export const operatorTaskInspectionSchema = z.strictObject({ taskId: entityId, prompts: z.boolean().default(false) });
export const operatorTurnInspectionSchema = z.strictObject({ turnId: entityId, prompts: z.boolean().default(false) });
