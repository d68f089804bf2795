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
