import { ArgsType, Field, ID, Int } from '@nestjs/graphql';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../api-settings';
import { CheckpointState, TaskListKind, TaskStatus } from '../types/enums';
import { consistentWith, entityId, optional, pageArgs } from './input-schemas';

const firstDescription = `Page size, 1 to ${MAX_PAGE_SIZE}.`;
const consistentWithDescription =
  'A consistency token from a mutation: the query waits (bounded) until the read models show that change.';

@ArgsType()
export class ConsistentArgs {
  @Field(() => String, { nullable: true, description: consistentWithDescription })
  consistentWith?: string | null;
}

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: firstDescription })
  first!: number;

  @Field(() => String, { nullable: true })
  after?: string | null;
}

@ArgsType()
export class ConsistentPageArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: consistentWithDescription })
  consistentWith?: string | null;
}

@ArgsType()
export class ByIdArgs extends ConsistentArgs {
  @Field(() => ID)
  id!: string;
}

@ArgsType()
export class TasksArgs extends ConsistentPageArgs {
  @Field(() => TaskStatus, { nullable: true })
  status?: TaskStatus | null;

  @Field(() => TaskListKind, {
    defaultValue: TaskListKind.PERSISTENT,
    description: 'Lightweight tasks (one-shot jobs) are hidden unless asked for.',
  })
  kind!: TaskListKind;
}

@ArgsType()
export class EventsArgs extends ConsistentArgs {
  @Field(() => String, { description: 'A stream of your workspace, e.g. `task-<id>`.' })
  streamId!: string;

  @Field(() => Int, { defaultValue: 0 })
  fromRevision!: number;

  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: firstDescription })
  first!: number;
}

export const pageArgsSchema = z.strictObject(pageArgs);
export const consistentArgsSchema = z.strictObject({ consistentWith });
export const consistentPageArgsSchema = z.strictObject({ ...pageArgs, consistentWith });
export const byIdArgsSchema = z.strictObject({ id: entityId, consistentWith });
export const tasksArgsSchema = z.strictObject({
  ...pageArgs,
  consistentWith,
  status: optional(z.enum(TaskStatus)),
  kind: z.enum(TaskListKind).default(TaskListKind.PERSISTENT),
});
export const eventsArgsSchema = z.strictObject({
  streamId: z.string().regex(/^[a-z]+-[A-Za-z0-9_.:-]{1,200}$/, 'a stream id: <category>-<id>'),
  fromRevision: z.number().int().min(0),
  first: pageArgs.first,
  consistentWith,
});

@ArgsType()
export class CheckpointsArgs {
  @Field(() => CheckpointState, { defaultValue: CheckpointState.ALL })
  state!: CheckpointState;
}

export const checkpointsArgsSchema = z.strictObject({ state: z.enum(['open', 'resolved', 'all']).default('all') });

@ArgsType()
export class TurnStepArgs extends ConsistentArgs {
  @Field(() => ID)
  turnId!: string;

  @Field(() => Int, { description: 'The step number, from 1.' })
  step!: number;
}

export const turnStepArgsSchema = z.strictObject({
  turnId: entityId,
  step: z.number().int().min(1),
  consistentWith,
});
