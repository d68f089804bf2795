import { liveResolvers } from '../subscriptions/live-api.providers';
import { ArtifactMutationsResolver } from './resolvers/artifact-mutations.resolver';
import { ArtifactsResolver } from './resolvers/artifacts.resolver';
import { CorrectionMutationsResolver } from './resolvers/correction-mutations.resolver';
import { EventsResolver } from './resolvers/events.resolver';
import { GenerationMutationsResolver } from './resolvers/generation-mutations.resolver';
import { GenerationResolver } from './resolvers/generation.resolver';
import { HistorySegmentsResolver } from './resolvers/history-segments.resolver';
import { MainLineResolver } from './resolvers/main-line.resolver';
import { MeResolver } from './resolvers/me.resolver';
import { MemoryVersionFieldsResolver, ProfileFieldsResolver } from './resolvers/memory-fields.resolver';
import { MemoryMutationsResolver } from './resolvers/memory-mutations.resolver';
import { MemoryOperationsResolver } from './resolvers/memory-operations.resolver';
import { MemoryQueriesResolver } from './resolvers/memory-queries.resolver';
import { MessageMutationsResolver } from './resolvers/message-mutations.resolver';
import { OperatorInspectionResolver } from './resolvers/operator-inspection.resolver';
import { OperatorReplayResolver } from './resolvers/operator-replay.resolver';
import { TaskContextResolver } from './resolvers/task-context.resolver';
import { TaskMutationsResolver } from './resolvers/task-mutations.resolver';
import { TasksResolver } from './resolvers/tasks.resolver';
import { TurnStepsResolver } from './resolvers/turn-steps.resolver';
import { TurnsResolver } from './resolvers/turns.resolver';
import { WebhooksResolver } from './resolvers/webhooks.resolver';

/** Every resolver of the API: the module provides them and the schema file is generated from them. */
export const apiResolvers = [
  MeResolver,
  MainLineResolver,
  TasksResolver,
  TaskContextResolver,
  HistorySegmentsResolver,
  TurnsResolver,
  TurnStepsResolver,
  EventsResolver,
  MessageMutationsResolver,
  TaskMutationsResolver,
  CorrectionMutationsResolver,
  WebhooksResolver,
  ArtifactsResolver,
  ArtifactMutationsResolver,
  GenerationResolver,
  GenerationMutationsResolver,
  MemoryQueriesResolver,
  MemoryVersionFieldsResolver,
  ProfileFieldsResolver,
  MemoryMutationsResolver,
  MemoryOperationsResolver,
  OperatorInspectionResolver,
  OperatorReplayResolver,
  ...liveResolvers,
] as const;
