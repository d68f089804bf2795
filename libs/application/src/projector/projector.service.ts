import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, type Logger } from '@lomo/observability';
import {
  DOCUMENT_STORE,
  type DocumentStore,
  type ProjectionRunner,
  type ProjectorSettings,
  PROJECTION_FEED,
  PROJECTION_RUNNER,
  PROJECTOR_SETTINGS,
} from '@lomo/read-models';
import type { BusChangeNoticeSink } from './bus-change-notices';
import type { ProjectionFeed } from './projection-feeds';

export const CHANGE_NOTICE_SINK = Symbol('CHANGE_NOTICE_SINK');

/**
 * Start order: the change-notice topic, then the runner (live projections caught up with the
 * store, rebuilds in the background), then the feed and the periodic sweep. Stopped in
 * onModuleDestroy, before the platform closes the bus and the event store.
 */
@Injectable()
export class ProjectorService implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    @Inject(PROJECTION_FEED) private readonly feed: ProjectionFeed,
    @Inject(CHANGE_NOTICE_SINK) private readonly notices: BusChangeNoticeSink,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(PROJECTOR_SETTINGS) private readonly settings: ProjectorSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.notices.ensureTopic();
    await this.runner.start();
    await this.feed.start();
    this.runner.startSweeping(this.settings.sweepMs);
    this.logger.info(
      {
        component: 'projector',
        feed: this.settings.feed,
        projections: this.runner.status().map((s) => `${s.collection}:${s.state}`),
      },
      'projector started',
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.feed.stop();
    await this.runner.stop();
    await this.documents.close();
    this.logger.info({ component: 'projector' }, 'projector stopped');
  }
}
