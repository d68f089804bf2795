import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from './connection';
import { CheckpointCard } from './task.types';
import {
  ClarificationAction,
  ClarificationReason,
  MainLineItemKind,
  MessageChannel,
  RoutingMethod,
  RoutingOutcome,
  TaskStatus,
} from './enums';

@ObjectType({ description: 'Where the router sent a message.' })
export class Routing {
  @Field(() => RoutingOutcome)
  outcome!: string;

  @Field(() => ID, { nullable: true, description: 'Set when the outcome is LIGHTWEIGHT, EXISTING or NEW.' })
  taskId!: string | null;

  @Field(() => RoutingMethod)
  method!: string;

  @Field(() => String, { nullable: true, description: 'Why the router decided so, when it said.' })
  reason!: string | null;

  @Field(() => ID, { nullable: true, description: 'The clarification card this message answered.' })
  answersCardId!: string | null;

  @Field(() => String)
  decidedAt!: string;
}

@ObjectType()
export class ClarificationOption {
  @Field(() => String, { description: 'What `answerClarification(optionId:)` names.' })
  optionId!: string;

  @Field(() => String)
  label!: string;

  @Field(() => ClarificationAction, { description: 'ROUTE to the task, start a NEW one, or REOPEN the task.' })
  action!: string;

  @Field(() => ID, { nullable: true })
  taskId!: string | null;
}

@ObjectType({ description: "The person's answer to a clarification card; a card is answered once." })
export class ClarificationAnswer {
  @Field(() => String, { nullable: true })
  optionId!: string | null;

  @Field(() => String, { nullable: true })
  text!: string | null;

  @Field(() => ID, { description: 'The answer as a message on the main line.' })
  answerMessageId!: string;

  @Field(() => String)
  answeredAt!: string;
}

@ObjectType({ description: 'The question Main asked back instead of routing: a card to answer.' })
export class Clarification {
  @Field(() => ID)
  cardId!: string;

  @Field(() => String)
  question!: string;

  @Field(() => [ClarificationOption])
  options!: ClarificationOption[];

  @Field(() => ClarificationReason)
  reason!: string;

  @Field(() => String)
  language!: string;

  @Field(() => String)
  askedAt!: string;

  @Field(() => ClarificationAnswer, { nullable: true, description: 'Null while the card is open.' })
  answered!: ClarificationAnswer | null;
}

@ObjectType()
export class MainReply {
  @Field(() => ID)
  replyId!: string;

  @Field(() => String)
  text!: string;

  @Field(() => String)
  language!: string;

  @Field(() => String)
  repliedAt!: string;
}

@ObjectType()
export class TaskCard {
  @Field(() => ID)
  cardId!: string;

  @Field(() => ID)
  taskId!: string;

  @Field(() => String)
  title!: string;

  @Field(() => TaskStatus)
  status!: string;

  @Field(() => String, { nullable: true })
  summary!: string | null;

  @Field(() => String)
  shownAt!: string;
}

@ObjectType({ description: 'What a message named explicitly: a task or an artefact.' })
export class MessageTarget {
  @Field(() => ID, { nullable: true })
  taskId!: string | null;

  @Field(() => String, { nullable: true })
  artifactRef!: string | null;
}

@ObjectType({
  description:
    "One item of the person's conversation with Main: a message (with its routing), a task card, or a task's checkpoint cards.",
})
export class MainLineItem {
  @Field(() => ID, {
    description: "The message id, the card id for a card shown on its own, or the item's own id for CHECKPOINTS.",
  })
  id!: string;

  @Field(() => MainLineItemKind, { nullable: true })
  kind!: string | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Its revision on your main stream (null for CHECKPOINTS): the order among items of one time.',
  })
  seq!: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Its place on the line (newest first): when it came; for CHECKPOINTS when the latest card opened.',
  })
  createdAt!: string | null;

  @Field(() => String, { nullable: true })
  text!: string | null;

  @Field(() => String, { nullable: true })
  language!: string | null;

  @Field(() => MessageChannel, { nullable: true })
  channel!: string | null;

  @Field(() => MessageTarget, { nullable: true })
  target!: MessageTarget | null;

  @Field(() => String, { nullable: true })
  clientMessageId!: string | null;

  @Field(() => ID, { nullable: true, description: 'The clarification card this message answers.' })
  answersCardId!: string | null;

  @Field(() => Routing, { nullable: true, description: 'Null until the router has decided.' })
  routing!: Routing | null;

  @Field(() => Clarification, { nullable: true })
  clarification!: Clarification | null;

  @Field(() => MainReply, { nullable: true, description: "Main's own answer, when the message needed no task." })
  reply!: MainReply | null;

  @Field(() => TaskCard, { nullable: true })
  card!: TaskCard | null;

  @Field(() => [CheckpointCard], {
    description:
      'CHECKPOINTS: the cards of a task you started, oldest first; open ones wait for resolveCheckpoint, resolved ones show your decision. Empty for other items.',
  })
  checkpoints!: CheckpointCard[];
}

export const MainLineConnection = Connection('MainLineItem', MainLineItem);
