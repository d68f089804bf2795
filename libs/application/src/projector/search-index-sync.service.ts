import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { LOGGER, type Logger } from '@lomo/observability';
import { DOCUMENT_STORE, PROJECTION_RUNNER, type DocumentStore, type ProjectionRunner } from '@lomo/read-models';
import { ROUTING_INDEX_PROJECTION, SearchIndexFeeder } from '@lomo/routing';

export const SEARCH_INDEX_FEEDER = Symbol('SEARCH_INDEX_FEEDER');
const MARKERS = 'search_index_sync';
const CHECK_EVERY_MS = 15_000;

/**
 * Live changes reach the search index through routing_index's change notices; a rebuild (or the
 * first build of routing_index over an existing log) writes a fresh collection without notices.
 * So whenever the live collection differs from the one the search index was last filled from
 * (a marker document), the index is refilled from it: at start, and then every 15 s.
 */
@Injectable()
export class SearchIndexSync implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    @Inject(PROJECTION_RUNNER) private readonly runner: ProjectionRunner,
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(SEARCH_INDEX_FEEDER) private readonly feeder: SearchIndexFeeder,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.check(), CHECK_EVERY_MS);
    this.timer.unref();
    void this.check();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One comparison, and a refill when the live collection changed; never two at once. */
  check(): Promise<void> {
    this.running ??= this.syncOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async syncOnce(): Promise<void> {
    try {
      const status = this.runner.status().find((s) => s.name === ROUTING_INDEX_PROJECTION);
      if (status === undefined || status.state !== 'live') return;
      const collection = await this.runner.aliases.collectionOf(ROUTING_INDEX_PROJECTION);
      if (collection === undefined) return;
      const marker = await this.documents.get<{ _id: string; collection: string }>(MARKERS, ROUTING_INDEX_PROJECTION);
      if (marker?.collection === collection) return;
      const fed = await this.feeder.resync(collection);
      await this.documents.bulkWrite(MARKERS, [
        { type: 'upsert', document: { _id: ROUTING_INDEX_PROJECTION, collection } },
      ]);
      this.logger.info({ component: 'projector', collection, fed }, 'search index refilled from routing_index');
    } catch (error) {
      this.logger.warn({ component: 'projector', error: String(error) }, 'search index refill failed; retried later');
    }
  }
}
