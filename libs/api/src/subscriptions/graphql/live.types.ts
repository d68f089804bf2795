import { Field, InputType, ObjectType, registerEnumType } from '@nestjs/graphql';
import { streamCategories, type StreamCategory } from '@lomo/contracts';
import { StoredEvent } from '../../graphql/types/event.types';
import { MainLineItem } from '../../graphql/types/main-line.types';
import { Task } from '../../graphql/types/task.types';

const tokenDescription =
  'The revision this payload reflects: pass as `consistentWith` to a query to read a state at least as new.';

@ObjectType({ description: 'A change of your main line: first the latest items (a snapshot), then each change.' })
export class MainLineUpdate {
  @Field(() => Boolean, { description: 'True for the first payload: the latest items, newest first.' })
  snapshot!: boolean;

  @Field(() => [MainLineItem], { description: 'The snapshot, or the one item that changed, as the read model has it.' })
  items!: MainLineItem[];

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType({ description: 'A state of a task: first its current state, then every newer one.' })
export class TaskUpdate {
  @Field(() => Task)
  task!: Task;

  @Field(() => String, { description: tokenDescription })
  consistencyToken!: string;
}

@ObjectType({ description: 'An event of your workspace, with the cursor to resume after it.' })
export class FeedEvent {
  @Field(() => String, { description: 'Pass as `after` when resubscribing to continue right after this event.' })
  cursor!: string;

  @Field(() => StoredEvent)
  event!: StoredEvent;
}

/** GraphQL names upper case, values the contracts' categories (`main`, `task`, ...). */
export const StreamCategoryEnum = Object.fromEntries(streamCategories.map((c) => [c.toUpperCase(), c])) as Record<
  Uppercase<StreamCategory>,
  StreamCategory
>;

registerEnumType(StreamCategoryEnum, {
  name: 'StreamCategory',
  description: 'The kind of stream an event belongs to: `task` for `task-<id>`, and so on.',
});

@InputType({ description: 'Which events a feed carries; both lists empty or absent = every event.' })
export class EventFeedFilter {
  @Field(() => [StreamCategoryEnum], { nullable: true, description: 'Only events of these stream categories.' })
  categories?: StreamCategory[] | null;

  @Field(() => [String], { nullable: true, description: 'Only events of these types, e.g. `TaskStopped`.' })
  types?: string[] | null;
}
