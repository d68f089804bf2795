import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from './connection';

@ObjectType({ description: 'A raw event of the log, for debugging.' })
export class StoredEvent {
  @Field(() => ID)
  eventId!: string;

  @Field(() => String)
  streamId!: string;

  @Field(() => Int)
  revision!: number;

  @Field(() => String, { description: 'Opaque global position.' })
  position!: string;

  @Field(() => String)
  type!: string;

  @Field(() => Int)
  schemaVersion!: number;

  @Field(() => String)
  occurredAt!: string;

  @Field(() => String)
  correlationId!: string;

  @Field(() => String, { nullable: true })
  causationId!: string | null;

  @Field(() => String, { description: 'Who caused it, as JSON text.' })
  actorJson!: string;

  @Field(() => Int, { nullable: true })
  generation!: number | null;

  @Field(() => String, { description: 'The event data as JSON text.' })
  dataJson!: string;
}

export const StoredEventConnection = Connection('StoredEvent', StoredEvent);
