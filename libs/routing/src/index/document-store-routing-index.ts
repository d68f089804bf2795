import type { DocumentStore } from '@lomo/read-models';
import type { RoutingDocument } from './routing-document';
import type { RoutingIndex } from './routing-index.port';
import { toRoutingDocument, type RoutingIndexDocument } from './routing-index.projection';

/**
 * RoutingIndex over the `routing_index` collection. `collectionOf` resolves the projection's
 * alias (ProjectionAliases.collectionOf), so a rebuild's switch is seen; before the first build
 * there is nothing to read.
 */
export class DocumentStoreRoutingIndex implements RoutingIndex {
  constructor(
    private readonly documents: DocumentStore,
    private readonly collectionOf: () => Promise<string | undefined>,
  ) {}

  recent(workspaceId: string, limit: number): Promise<RoutingDocument[]> {
    return this.latest({ workspaceId, routable: true }, limit);
  }

  recentActive(workspaceId: string, limit: number): Promise<RoutingDocument[]> {
    return this.latest({ workspaceId, activePool: true }, limit);
  }

  async get(workspaceId: string, taskIds: readonly string[]): Promise<RoutingDocument[]> {
    const collection = await this.collectionOf();
    if (collection === undefined || taskIds.length === 0) return [];
    const found = await this.documents.getMany<RoutingIndexDocument>(collection, taskIds);
    return found.filter((d) => d.created && d.workspaceId === workspaceId).map(toRoutingDocument);
  }

  private async latest(filter: { workspaceId: string; [flag: string]: string | boolean }, limit: number) {
    const collection = await this.collectionOf();
    if (collection === undefined || limit <= 0) return [];
    const page = await this.documents.find<RoutingIndexDocument>(collection, {
      filter,
      sort: [['lastActiveAt', -1]],
      limit,
    });
    return page.items.map(toRoutingDocument);
  }
}
