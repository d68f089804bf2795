import { ArgsType, Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'A secret that signs deliveries; its value is shown once, when created.' })
export class WebhookSecretInfo {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  createdAt!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Null for the current secret; set for previous ones during rotation.',
  })
  expiresAt!: string | null;
}

@ObjectType()
export class Webhook {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  url!: string;

  @Field(() => [String], { description: 'Event types or stream categories delivered.' })
  eventTypes!: string[];

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => String, { description: 'active | disabled' })
  status!: string;

  @Field(() => String, { nullable: true })
  disabledReason!: string | null;

  @Field(() => [WebhookSecretInfo])
  secrets!: WebhookSecretInfo[];

  @Field(() => String)
  createdAt!: string;
}

@ObjectType()
export class WebhookWithSecretPayload {
  @Field(() => Webhook)
  webhook!: Webhook;

  @Field(() => String, { description: 'The signing secret, shown only now. Verify `Lomo-Signature` with it.' })
  secret!: string;
}

@ObjectType()
export class WebhookDeadLetter {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  webhookId!: string;

  @Field(() => String)
  streamId!: string;

  @Field(() => ID)
  eventId!: string;

  @Field(() => String)
  eventType!: string;

  @Field(() => Int)
  revision!: number;

  @Field(() => String, { description: 'The event’s cursor, as in delivery bodies.' })
  cursor!: string;

  @Field(() => Int)
  attempts!: number;

  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @Field(() => String, { description: 'open (its stream waits) | redelivery_requested | skip_requested | …' })
  status!: string;

  @Field(() => String)
  createdAt!: string;
}

@ObjectType()
export class WebhookDeadLetterPage {
  @Field(() => [WebhookDeadLetter])
  items!: WebhookDeadLetter[];

  @Field(() => String, { nullable: true })
  endCursor!: string | null;

  @Field(() => Boolean)
  hasMore!: boolean;
}

@ArgsType()
export class RegisterWebhookArgs {
  @Field(() => String)
  url!: string;

  @Field(() => [String], { description: 'Event types (e.g. TaskStopped) or stream categories (e.g. task).' })
  eventTypes!: string[];

  @Field(() => String, { nullable: true })
  description?: string;
}

@ArgsType()
export class WebhookIdArgs {
  @Field(() => ID)
  id!: string;
}

@ArgsType()
export class ReplayWebhookArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: 'A cursor from a delivery body, or "start".' })
  fromCursor!: string;
}

@ArgsType()
export class WebhookDeadLettersArgs {
  @Field(() => ID)
  webhookId!: string;

  @Field(() => Int, { nullable: true, defaultValue: 20 })
  first?: number;

  @Field(() => String, { nullable: true })
  after?: string;
}

@ArgsType()
export class DeadLetterIdArgs {
  @Field(() => ID)
  deadLetterId!: string;
}
