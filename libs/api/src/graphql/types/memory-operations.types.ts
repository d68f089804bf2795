import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'A piece of memory work (extraction, a forgetting) that failed every attempt.' })
export class MemoryDeadLetter {
  @Field()
  topic!: string;

  @Field(() => Int)
  partition!: number;

  @Field(() => Int)
  offset!: number;

  @Field({ description: 'The event that was being handled (e.g. MessageDeliveredToInbox).' })
  eventType!: string;

  @Field()
  errorCode!: string;

  @Field()
  errorMessage!: string;

  @Field(() => Int)
  attempts!: number;

  @Field()
  deadLetteredAt!: string;
}

@ObjectType()
export class MemoryRedriveFailure {
  @Field(() => Int)
  offset!: number;

  @Field()
  error!: string;
}

@ObjectType({ description: 'What a redrive of memory dead letters did.' })
export class MemoryRedrivePayload {
  @Field(() => Int, { description: 'Dead letters handled successfully this time.' })
  redriven!: number;

  @Field(() => [MemoryRedriveFailure], { description: 'Those that failed again (they stay dead-lettered).' })
  failed!: MemoryRedriveFailure[];
}
