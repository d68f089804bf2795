import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../api-settings';
import { entityId, optional, pageArgs } from '../../graphql/args/input-schemas';
import { EventFeedFilter } from './live.types';

@ArgsType()
export class MainlineUpdatedArgs {
  @Field(() => Int, {
    defaultValue: DEFAULT_PAGE_SIZE,
    description: `Items in the first payload (the snapshot), 1 to ${MAX_PAGE_SIZE}.`,
  })
  first!: number;
}

@ArgsType()
export class TaskUpdatedArgs {
  @Field(() => ID)
  taskId!: string;
}

@ArgsType()
export class EventFeedArgs {
  @Field(() => EventFeedFilter, { nullable: true })
  filter?: EventFeedFilter | null;

  @Field(() => String, {
    nullable: true,
    description: 'The cursor of the last event you handled; absent = from the first event of your workspace.',
  })
  after?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The workspace to read; default yours. Operator tokens only: any other workspace is FORBIDDEN to other tokens.',
  })
  workspaceId?: string | null;
}

export const mainlineUpdatedSchema = z.strictObject({ first: pageArgs.first });
export const taskUpdatedSchema = z.strictObject({ taskId: entityId });
/** The filter is checked by `feedFilter`; here only its presence. */
export const eventFeedSchema = z.strictObject({
  filter: z.unknown().optional(),
  after: optional(z.string().min(1).max(400)),
  workspaceId: optional(z.string().regex(/^[a-z0-9][a-z0-9_]{0,62}$/, 'a workspace id')),
});

@ArgsType()
export class CheckpointOpenedArgs {
  @Field(() => String, {
    nullable: true,
    description: 'The cursor of the last notice you handled; absent = from now on.',
  })
  after?: string | null;
}

export const checkpointOpenedSchema = z.strictObject({ after: optional(z.string().min(1).max(400)) });
