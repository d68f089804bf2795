import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { SegmentSummarizer } from './enums';
import { StepRef } from './task.types';
import { BlobRef } from './turn.types';

@ObjectType({
  description: 'The steps a history segment summarizes, first and last included; open them with `turnStep` or `turn`.',
})
export class SegmentRange {
  @Field(() => StepRef)
  from!: StepRef;

  @Field(() => StepRef)
  to!: StepRef;

  @Field(() => Int)
  steps!: number;
}

@ObjectType({
  description:
    "A summary of a span of the task's earlier steps, shown to the model instead of those steps. Segments are appended, never rewritten: a merge or a correction appends a new one that supersedes others. The events, not the summary, are the record: `covers` names the steps it stands for.",
})
export class HistorySegment {
  @Field(() => ID)
  id!: string;

  @Field(() => SegmentRange)
  covers!: SegmentRange;

  @Field(() => Int)
  tokens!: number;

  @Field(() => SegmentSummarizer)
  summarizer!: string;

  @Field(() => [ID], { description: 'Segments this one replaces (a merge, or a corrected copy).' })
  supersedes!: string[];

  @Field(() => ID, { nullable: true, description: 'The later segment that replaced this one.' })
  supersededBy!: string | null;

  @Field(() => Boolean, {
    description: 'Taken out of every later prompt (a correction invalidated it, or it was forgotten).',
  })
  excluded!: boolean;

  @Field(() => Boolean, { description: 'Shown to the model: neither superseded nor excluded.' })
  shown!: boolean;

  @Field(() => BlobRef, { description: 'Where its text is kept.' })
  textRef!: BlobRef;
}

@ObjectType({
  description:
    'A requirement the person stated in a message. A later statement on the same subject withdraws it, and it stops reaching prompts.',
})
export class TaskConstraint {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  subject!: string;

  @Field(() => String)
  statement!: string;

  @Field(() => ID, { description: 'The inbox item (message) it was read from.' })
  itemId!: string;

  @Field(() => Boolean)
  inForce!: boolean;

  @Field(() => ID, { nullable: true, description: 'The constraint that replaced it; null while in force.' })
  withdrawnBy!: string | null;
}
