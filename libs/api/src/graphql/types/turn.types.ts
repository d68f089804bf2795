import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from './connection';
import { ToolCallOutcome, ToolCallStatus, TurnStatus } from './enums';
import { StepContext } from './step-context.types';

@ObjectType()
export class Lease {
  @Field(() => String)
  workerId!: string;

  @Field(() => Int)
  generation!: number;

  @Field(() => String)
  leaseUntil!: string;
}

@ObjectType()
export class TokenUsage {
  @Field(() => Int)
  inputTokens!: number;

  @Field(() => Int)
  outputTokens!: number;

  @Field(() => Int, { nullable: true })
  cachedInputTokens!: number | null;
}

@ObjectType({ description: 'A typed error recorded in the log.' })
export class RecordedError {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  message!: string;

  @Field(() => Boolean)
  retriable!: boolean;
}

@ObjectType({ description: 'Content kept in the blob store.' })
export class BlobRef {
  @Field(() => String)
  hash!: string;

  @Field(() => Int)
  bytes!: number;

  @Field(() => String)
  contentType!: string;
}

@ObjectType({ description: 'A committed model step.' })
export class TurnStep {
  @Field(() => ID)
  turnId!: string;

  @Field(() => Int)
  step!: number;

  @Field(() => String)
  reply!: string;

  @Field(() => [ID])
  callIds!: string[];

  @Field(() => [ID], { description: 'Inbox items this step read.' })
  consumedItemIds!: string[];

  @Field(() => TokenUsage)
  usage!: TokenUsage;

  @Field(() => String)
  finishReason!: string;

  @Field(() => String)
  committedAt!: string;

  @Field(() => StepContext, {
    nullable: true,
    description: 'What the prompt was made of and cost; null for steps committed before context accounting.',
  })
  context!: StepContext | null;

  /** The turn's workspace, for `prompt`'s authorization (an operator may read another's). */
  workspaceId!: string;

  /** The archived prompt, for `prompt`; null in a document of turns v1, the event has it then. */
  promptRef!: BlobRef | null;
}

@ObjectType({ description: 'An entry of the tool-call ledger.' })
export class ToolCall {
  @Field(() => ID, { description: '`{turnId}:{step}:{index}`.' })
  callId!: string;

  @Field(() => String)
  tool!: string;

  @Field(() => Int)
  step!: number;

  @Field(() => Int)
  index!: number;

  @Field(() => String, { description: 'The arguments as JSON text.' })
  argumentsJson!: string;

  @Field(() => ToolCallStatus)
  status!: string;

  @Field(() => Int)
  attempts!: number;

  @Field(() => ToolCallOutcome, { nullable: true })
  outcome!: string | null;

  @Field(() => String, { nullable: true, description: 'The result as JSON text, when kept inline.' })
  resultJson!: string | null;

  @Field(() => BlobRef, { nullable: true, description: 'The result in the blob store, when large.' })
  resultRef!: BlobRef | null;

  @Field(() => RecordedError, { nullable: true })
  error!: RecordedError | null;

  @Field(() => String, { nullable: true })
  unknownReason!: string | null;

  @Field(() => Boolean, { description: 'The result arrived after the turn ended.' })
  completedAfterClose!: boolean;
}

@ObjectType({ description: "A run of a task's agent: model steps and tool calls under a lease." })
export class Turn {
  @Field(() => ID)
  id!: string;

  @Field(() => ID, { nullable: true })
  taskId!: string | null;

  @Field(() => String, { nullable: true, description: 'What woke the task.' })
  reason!: string | null;

  @Field(() => TurnStatus, { nullable: true })
  status!: string | null;

  @Field(() => Int, { description: 'Rises on every takeover of the lease.' })
  generation!: number;

  @Field(() => Lease, { nullable: true })
  lease!: Lease | null;

  @Field(() => String, { nullable: true, description: 'What the turn waits on, as JSON text.' })
  waitingOnJson!: string | null;

  @Field(() => String, { nullable: true })
  summary!: string | null;

  @Field(() => RecordedError, { nullable: true })
  error!: RecordedError | null;

  @Field(() => String, { nullable: true })
  cancelReason!: string | null;

  @Field(() => String, { nullable: true })
  startedAt!: string | null;

  @Field(() => String, { nullable: true })
  lastActivityAt!: string | null;

  @Field(() => String, { nullable: true })
  endedAt!: string | null;
}

export const TurnConnection = Connection('Turn', Turn);
export const TurnStepConnection = Connection('TurnStep', TurnStep);
export const ToolCallConnection = Connection('ToolCall', ToolCall);
