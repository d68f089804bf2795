import type { Provider } from '@nestjs/common';
import { EventFeeds } from './feed/event-feeds';
import { StoreTail } from './feed/store-tail';
import { ArtifactChangedResolver } from './graphql/artifact-changed.resolver';
import { CheckpointOpenedResolver } from './graphql/checkpoint-opened.resolver';
import { EventFeedResolver } from './graphql/event-feed.resolver';
import { GenerationProgressResolver } from './graphql/generation-progress.resolver';
import { LiveUpdatesResolver } from './graphql/live-updates.resolver';
import { ArtifactUpdates } from './live/artifact-updates';
import { ChangeNoticeFanout } from './live/change-notice-fanout';
import { GenerationUpdates } from './live/generation-updates';
import { MainLineUpdates } from './live/main-line-updates';
import { TaskUpdates } from './live/task-updates';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from './subscription-settings';
import { GraphqlWsServer } from './ws/graphql-ws-server';

/** The subscription resolvers, for the module and for the generated schema file. */
export const liveResolvers = [
  LiveUpdatesResolver,
  EventFeedResolver,
  ArtifactChangedResolver,
  GenerationProgressResolver,
  CheckpointOpenedResolver,
] as const;

/** What ApiModule adds for the live API (graphql-ws on /graphql). */
export function liveApiProviders(settings: SubscriptionSettings): Provider[] {
  return [
    { provide: SUBSCRIPTION_SETTINGS, useValue: settings },
    ChangeNoticeFanout,
    StoreTail,
    TaskUpdates,
    ArtifactUpdates,
    GenerationUpdates,
    MainLineUpdates,
    EventFeeds,
    GraphqlWsServer,
  ];
}
