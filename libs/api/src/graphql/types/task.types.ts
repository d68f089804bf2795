import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from './connection';
import { InboxItemStatus, TaskKind, TaskStatus, TurnStatus } from './enums';

@ObjectType()
export class TaskCounts {
  @Field(() => Int)
  inboxPending!: number;

  @Field(() => Int)
  inboxClaimed!: number;

  @Field(() => Int)
  inboxWithdrawn!: number;

  @Field(() => Int, { description: 'Unread messages moved (or merged) to another task.' })
  inboxMoved!: number;

  @Field(() => Int)
  turns!: number;

  @Field(() => Int)
  steps!: number;
}

@ObjectType({
  description: "The task's one active turn as the task knows it; `Task.activeTurn` reads the turn itself.",
})
export class ActiveTurnSummary {
  @Field(() => ID)
  turnId!: string;

  @Field(() => TurnStatus, { nullable: true })
  status!: string | null;

  @Field(() => Int)
  steps!: number;
}

@ObjectType({
  description:
    "After a completed turn, the runtime's decision whether to go on by itself, from the task's persisted state, with its reason.",
})
export class ContinuationDecision {
  @Field(() => ID)
  turnId!: string;

  @Field(() => String, { description: 'continue | finish | await_person | stop' })
  decision!: string;

  @Field(() => String, {
    description: 'pending_items | checklist_complete | no_plan | checkpoint_open | blocked | no_progress | turn_limit',
  })
  reason!: string;

  @Field(() => [String], {
    description:
      'What the turn achieved: artifact_version, item_done, job_submitted, person_input (empty: no progress).',
  })
  progress!: string[];

  @Field(() => Int, { description: 'Turns the runtime started by itself in a row.' })
  autoTurns!: number;

  @Field(() => Int, { description: 'Completed turns in a row without progress.' })
  turnsWithoutProgress!: number;
}

@ObjectType({ description: 'A piece of work: created by routing, run in turns, fed by its inbox.' })
export class Task {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  goal!: string | null;

  @Field(() => TaskKind, { nullable: true })
  kind!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the task stands, kept current after each turn.' })
  summary!: string | null;

  @Field(() => ID, { nullable: true, description: 'The task this one was merged into (it is archived).' })
  mergedInto!: string | null;

  @Field(() => TaskStatus, { nullable: true })
  status!: string | null;

  @Field(() => String, { nullable: true })
  language!: string | null;

  @Field(() => ID, { nullable: true })
  originMessageId!: string | null;

  @Field(() => String, { nullable: true })
  createdAt!: string | null;

  @Field(() => String, { nullable: true })
  lastActivityAt!: string | null;

  @Field(() => ID, { nullable: true })
  activeTurnId!: string | null;

  @Field(() => ActiveTurnSummary, { nullable: true })
  activeTurnSummary!: ActiveTurnSummary | null;

  @Field(() => Int)
  openCheckpoints!: number;

  @Field(() => ContinuationDecision, { nullable: true })
  lastContinuation!: ContinuationDecision | null;

  @Field(() => TaskCounts)
  counts!: TaskCounts;
}

export const TaskConnection = Connection('Task', Task);

@ObjectType({ description: 'A turn and step.' })
export class StepRef {
  @Field(() => ID)
  turnId!: string;

  @Field(() => Int)
  step!: number;
}

@ObjectType({ description: 'Where a moved message went.' })
export class MovedTo {
  @Field(() => ID)
  taskId!: string;

  @Field(() => Boolean, { description: 'Read here already: it stayed here as history and the task got a copy.' })
  consumed!: boolean;
}

@ObjectType({ description: 'Where a moved or merged message came from.' })
export class MovedFrom {
  @Field(() => ID)
  taskId!: string;

  @Field(() => String)
  note!: string;

  @Field(() => Boolean)
  consumedThere!: boolean;
}

@ObjectType({ description: "A message in a task's inbox, waiting for (or read by) a step." })
export class InboxItem {
  @Field(() => ID, { description: 'The item id, which is the message id.' })
  id!: string;

  @Field(() => ID, { nullable: true })
  taskId!: string | null;

  @Field(() => ID, { nullable: true })
  messageId!: string | null;

  @Field(() => String, { nullable: true })
  text!: string | null;

  @Field(() => String, { nullable: true })
  language!: string | null;

  @Field(() => InboxItemStatus, { nullable: true })
  status!: string | null;

  @Field(() => StepRef, { nullable: true, description: 'The step holding the claim; null unless claimed.' })
  claimedAt!: StepRef | null;

  @Field(() => StepRef, { nullable: true, description: 'The committed step that read the item.' })
  consumedAt!: StepRef | null;

  @Field(() => Int)
  replacements!: number;

  @Field(() => MovedTo, { nullable: true, description: 'Set once the person moved it to another task.' })
  movedTo!: MovedTo | null;

  @Field(() => MovedFrom, { nullable: true, description: 'Set when it was moved or merged here.' })
  movedFrom!: MovedFrom | null;

  @Field(() => String, { nullable: true })
  deliveredAt!: string | null;

  @Field(() => String, { nullable: true })
  updatedAt!: string | null;
}

export const InboxItemConnection = Connection('InboxItem', InboxItem);
