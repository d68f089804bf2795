import { Field, ID, ObjectType } from '@nestjs/graphql';

const tokenDescription = 'Pass as `consistentWith` to a query to read only once the read models show this change.';

@ObjectType()
export class SendMessagePayload {
  @Field(() => ID)
  messageId!: string;

  @Field(() => Boolean, { description: 'False when this clientMessageId was already received (a retry).' })
  created!: boolean;

  @Field(() => String)
  language!: string;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class MessageChangePayload {
  @Field(() => ID)
  messageId!: string;

  @Field(() => ID)
  taskId!: string;

  @Field(() => Boolean, { description: 'False when the item already was in that state.' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class TaskChangePayload {
  @Field(() => ID)
  taskId!: string;

  @Field(() => Boolean, { description: 'False when the task already was in that state.' })
  changed!: boolean;

  @Field(() => ID, { nullable: true, description: 'The turn a stop or pause cancelled.' })
  cancelledTurnId!: string | null;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class AnswerClarificationPayload {
  @Field(() => ID)
  cardId!: string;

  @Field(() => ID, { description: 'The answer, a message on your main line that the router routes.' })
  messageId!: string;

  @Field(() => Boolean, { description: 'False when this same answer was already given (a retry).' })
  created!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class MoveMessagePayload {
  @Field(() => ID)
  messageId!: string;

  @Field(() => ID)
  fromTaskId!: string;

  @Field(() => ID)
  toTaskId!: string;

  @Field(() => Boolean, {
    description: 'True when the old task had read it already: it stays there and the new task got a copy.',
  })
  consumed!: boolean;

  @Field(() => Boolean, { description: 'False when it already had been moved there.' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class MergeTasksPayload {
  @Field(() => ID)
  sourceTaskId!: string;

  @Field(() => ID)
  targetTaskId!: string;

  @Field(() => [ID], { description: "The source's unread messages this merge delivered to the target." })
  movedItemIds!: string[];

  @Field(() => Boolean, { description: 'False when the tasks already were merged.' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class ResolveCheckpointPayload {
  @Field(() => ID)
  taskId!: string;

  @Field(() => ID)
  checkpointId!: string;

  @Field(() => Boolean, { description: 'False when this same decision was already recorded (a retry).' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType({ description: "A change of a task's plan: its brief, checklist, an item's status or its autonomy." })
export class TaskPlanPayload {
  @Field(() => ID)
  taskId!: string;

  @Field(() => Boolean, { description: 'False when the task already was so (a retry, or the same edit again).' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType()
export class ApprovePlanBudgetPayload {
  @Field(() => ID)
  taskId!: string;

  @Field(() => ID, { description: 'The budget, the same on the task and on the account; derived from the key.' })
  budgetId!: string;

  @Field(() => Boolean, { description: 'False on a retry with the same key: nothing was approved twice.' })
  changed!: boolean;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}
