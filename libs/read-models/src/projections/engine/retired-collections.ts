import type { Logger } from '@lomo/observability';
import type { DocumentStore } from '../../document-store/document-store.port';
import type { AnyProjection } from './projection-definition';
import type { ProjectionAliasDocument } from './projection-aliases';
import { olderPhysicalCollections, streamsCollection, unusedCollectionsOfVersion } from './physical-names';
import type { ProjectionCheckpoints } from './projection-checkpoints';
import { describeError } from './describe-error';

/**
 * Drops the collections an alias switch retired. Not at once: a reader may have resolved the
 * alias just before the switch (readers cache it briefly), so the drop waits a grace period.
 * Whatever a stopped instance never got to drop goes at the next start.
 */
export class RetiredCollections {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly checkpoints: ProjectionCheckpoints,
    private readonly logger: Logger,
    private readonly graceMs: number,
  ) {}

  async dropLater(collections: readonly string[]): Promise<void> {
    if (collections.length === 0) return;
    if (this.graceMs === 0) return this.drop(collections);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.drop(collections).catch((error: unknown) =>
        this.logger.warn(
          { collections, error: describeError(error) },
          'dropping retired collections failed; next start retries',
        ),
      );
    }, this.graceMs).unref();
    this.timers.add(timer);
  }

  /**
   * At a start: the collections of older versions of the projection, and those of its own version
   * that neither the alias nor a rebuild under a live lease uses (what an operator's rebuild
   * replaced, or left half-built), with their streams and checkpoints.
   */
  async dropLeftovers(
    definition: Pick<AnyProjection, 'name' | 'version'>,
    alias: Pick<ProjectionAliasDocument, 'collection' | 'rebuild'> | undefined,
    now: Date,
  ): Promise<void> {
    const collections = await this.documents.listCollections();
    const leased = alias?.rebuild != null && Date.parse(alias.rebuild.leaseUntil) > now.getTime();
    const unused = [
      ...olderPhysicalCollections(definition.name, definition.version, collections),
      ...unusedCollectionsOfVersion(
        definition,
        [alias?.collection, leased ? alias?.rebuild?.collection : undefined],
        collections,
      ),
    ];
    for (const collection of unused) {
      await this.documents.dropCollection(collection);
      if (!collection.endsWith('_streams')) await this.checkpoints.remove(collection);
    }
    if (unused.length > 0)
      this.logger.info({ projection: definition.name, dropped: unused }, 'unused collections dropped');
  }

  /** Pending drops are abandoned; the next start finds the leftovers. */
  cancel(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private async drop(collections: readonly string[]): Promise<void> {
    for (const collection of collections) {
      await this.documents.dropCollection(collection);
      await this.documents.dropCollection(streamsCollection(collection));
      await this.checkpoints.remove(collection);
    }
    this.logger.info({ collections }, 'retired collections dropped');
  }
}
