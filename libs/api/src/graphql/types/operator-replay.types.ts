import { Field, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { InspectedText } from './operator-inspection.types';

/*
 * The GraphQL face of @lomo/operator's ReplayReport (libs/operator/src/replay/replay.types.ts),
 * what `replayTurn` returns: field for field, free-form values (tool arguments, results) as JSON
 * text, and anything forgotten as an InspectedText whose `purged` says so instead of the text.
 */

export const ReplayStepStatus = {
  REPLAYED: 'replayed',
  NOT_REPLAYED: 'not_replayed',
  WITHHELD: 'withheld',
  MODEL_FAILED: 'model_failed',
} as const;
export type ReplayStepStatus = (typeof ReplayStepStatus)[keyof typeof ReplayStepStatus];
registerEnumType(ReplayStepStatus, {
  name: 'ReplayStepStatus',
  description:
    'REPLAYED: the step was rebuilt and answered. NOT_REPLAYED: an earlier step diverged or stubbed a call, so this one no longer follows from the replay. WITHHELD: its rebuilt prompt still quoted forgotten text, so no model was asked. MODEL_FAILED: the model asked gave no answer (`error`).',
});

export const ReplayContextStatus = {
  REPRODUCED: 'reproduced',
  CONTEXT_DRIFT: 'context_drift',
  STORED_PROMPT_MISSING: 'stored_prompt_missing',
} as const;
export type ReplayContextStatus = (typeof ReplayContextStatus)[keyof typeof ReplayContextStatus];
registerEnumType(ReplayContextStatus, {
  name: 'ReplayContextStatus',
  description:
    'REPRODUCED: the live context assembler rebuilt the archived prompt byte for byte. CONTEXT_DRIFT: it built another one (`firstDifferingLayer` says where). STORED_PROMPT_MISSING: the archive is gone, nothing to compare with.',
});

export const ReplayCallStatus = {
  REUSED: 'reused',
  STUBBED: 'stubbed',
  NOT_CALLED: 'not_called',
  NOT_REPLAYED: 'not_replayed',
} as const;
export type ReplayCallStatus = (typeof ReplayCallStatus)[keyof typeof ReplayCallStatus];
registerEnumType(ReplayCallStatus, {
  name: 'ReplayCallStatus',
  description:
    'REUSED: the replay made the recorded call (same tool and arguments) and its recorded outcome stands for it. STUBBED: a call the record has no result for: nothing ran and its branch stops. NOT_CALLED: recorded, not made by the replay. NOT_REPLAYED: recorded in a step after the branch stopped.',
});

@ObjectType({ description: 'Whether the live context assembler rebuilt the prompt the step archived.' })
export class ReplayContextCheck {
  @Field(() => ReplayContextStatus)
  status!: ReplayContextStatus;

  @Field(() => String, { description: 'The canonical hash of the rebuilt prompt (messages, tools, allowed tools).' })
  rebuiltHash!: string;

  @Field(() => String, { nullable: true, description: "The archived prompt's hash; null when it is missing." })
  storedHash!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'CONTEXT_DRIFT only: the first layer, in prompt order, whose messages differ (prefix, history, recent, tail, input; the prefix holds the tool definitions).',
  })
  firstDifferingLayer!: string | null;
}

@ObjectType({ description: 'Whether the stored prompt depended on content forgotten since.' })
export class ReplayForgotten {
  @Field(() => Boolean, { description: 'True: it did; the rebuilt prompt leaves it out and none of it is shown.' })
  flagged!: boolean;

  @Field(() => String, { nullable: true })
  reason!: string | null;
}

@ObjectType({ description: "A person's or the router's write to the task while the step's model call ran." })
export class ReplayConcurrentWrite {
  @Field(() => String, { description: 'The event type.' })
  type!: string;

  @Field(() => String, { description: 'When it happened.' })
  at!: string;
}

@ObjectType({ description: "The step's reply, recorded and replayed." })
export class ReplayReply {
  @Field(() => InspectedText)
  recorded!: InspectedText;

  @Field(() => InspectedText, { nullable: true, description: 'Null when the step was not replayed.' })
  replayed!: InspectedText | null;

  @Field(() => Boolean)
  equal!: boolean;
}

@ObjectType({ description: 'The paid generation job a recorded call started.' })
export class ReplayRecordedJob {
  @Field(() => ID)
  jobId!: string;

  @Field(() => String)
  status!: string;

  @Field(() => Int)
  chargedMinor!: number;

  @Field(() => Int)
  refundedMinor!: number;

  @Field(() => String, { nullable: true })
  currency!: string | null;
}

@ObjectType({ description: 'The recorded outcome a REUSED call stands on (or purged, for a forgotten step).' })
export class ReplayCallOutcome {
  @Field(() => String, {
    nullable: true,
    description: 'ok, error or unknown (the outcome was never known); null when purged.',
  })
  status!: string | null;

  @Field(() => String, { nullable: true, description: 'ok / error: the recorded result as JSON text.' })
  resultJson!: string | null;

  @Field(() => String, { nullable: true, description: 'unknown: why, as recorded.' })
  reason!: string | null;

  @Field(() => ReplayRecordedJob, { nullable: true })
  job!: ReplayRecordedJob | null;

  @Field(() => Boolean)
  purged!: boolean;

  @Field(() => String, { nullable: true })
  purgedReason!: string | null;
}

@ObjectType({ description: 'One tool call of a step: recorded, replayed or both.' })
export class ReplayCallDiff {
  @Field(() => ID, {
    nullable: true,
    description: "The recorded call's id (`{turnId}:{step}:{index}`); null for a call only the replay made.",
  })
  callId!: string | null;

  @Field(() => String)
  tool!: string;

  @Field(() => InspectedText, {
    nullable: true,
    description: 'The recorded arguments as canonical JSON text (purged for a forgotten step); null when not recorded.',
  })
  recordedArguments!: InspectedText | null;

  @Field(() => InspectedText, {
    nullable: true,
    description: 'The replayed arguments as canonical JSON text; null when the replay did not make the call.',
  })
  replayedArguments!: InspectedText | null;

  @Field(() => ReplayCallStatus)
  status!: ReplayCallStatus;

  @Field(() => ReplayCallOutcome, { nullable: true, description: 'REUSED only: the recorded outcome.' })
  outcome!: ReplayCallOutcome | null;
}

@ObjectType({ description: "A model's typed error." })
export class ReplayStepError {
  @Field(() => String)
  code!: string;

  @Field(() => String)
  message!: string;
}

@ObjectType({ description: 'One committed step of the turn, as replayed.' })
export class ReplayedStep {
  @Field(() => Int)
  step!: number;

  @Field(() => ReplayStepStatus)
  status!: ReplayStepStatus;

  @Field(() => ReplayStepError, { nullable: true, description: 'MODEL_FAILED only.' })
  error!: ReplayStepError | null;

  @Field(() => ReplayContextCheck, { nullable: true, description: 'Null when the step was not rebuilt.' })
  context!: ReplayContextCheck | null;

  @Field(() => ReplayForgotten)
  forgotten!: ReplayForgotten;

  @Field(() => [ReplayConcurrentWrite], {
    description:
      "Writes taken as landed during the step's model call: left out of the state its prompt is rebuilt from.",
  })
  concurrent!: ReplayConcurrentWrite[];

  @Field(() => [String], { description: "The prompt patch's rewrites that changed this step's prompt." })
  patched!: string[];

  @Field(() => ReplayReply)
  reply!: ReplayReply;

  @Field(() => [ReplayCallDiff])
  toolCalls!: ReplayCallDiff[];

  @Field(() => Boolean, { description: 'Whether its decisions (reply, tool calls, arguments) differ from the record.' })
  diverged!: boolean;
}

@ObjectType({
  description:
    'A turn replayed from its log, side-effect free: each step rebuilt, compared with the archived prompt, answered by the chosen model (or the record) and diffed with the recorded decision.',
})
export class ReplayReport {
  @Field(() => ID)
  turnId!: string;

  @Field(() => ID)
  taskId!: string;

  @Field(() => String)
  workspaceId!: string;

  @Field(() => String, { description: '`recorded`, or the name of the model asked.' })
  model!: string;

  @Field(() => [ReplayedStep])
  steps!: ReplayedStep[];

  @Field(() => Int, { nullable: true, description: 'The first step whose decisions differ from the record.' })
  divergedAt!: number | null;

  @Field(() => Int, { nullable: true, description: 'The first step whose rebuilt prompt differs from the stored one.' })
  driftAt!: number | null;
}
