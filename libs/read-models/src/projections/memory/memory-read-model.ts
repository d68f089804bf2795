import type { DocumentStore, Filter, Page, StoredDocument } from '../../document-store/document-store.port';
import type { PageRequest } from '../read/read-models';
import { memoriesProjection } from './memories.projection';
import { memoryDocumentId } from './memory-ids';
import type { MemoryDocument, MemoryScopeKind, MemoryVersionStatus } from './memory.document';

/** MemoryReadModel for the API: the same store the projector writes, read through the aliases. */
export const MEMORY_READ_MODEL = Symbol('MEMORY_READ_MODEL');

/** One person's memory: the workspace and the user whose `memory-` stream it is. */
export interface MemoryOwner {
  workspaceId: string;
  userId: string;
}

export interface MemoryListFilter {
  scope?: MemoryScopeKind;
  taskId?: string;
  status?: MemoryVersionStatus;
}

type CollectionOf = (name: string) => Promise<string | undefined>;

/**
 * Queries of the `memories` projection, always of one person: every document id and every filter
 * names the owner, so nothing here can return another person's memory. Who may ask for whose is
 * the caller's decision (the visibility policy, in the API). Documents without their section (a
 * document written before its creating event, which the stream order rules out) read as absent.
 */
export class MemoryReadModel {
  constructor(
    private readonly documents: DocumentStore,
    private readonly collectionOf: CollectionOf,
  ) {}

  /** `memories(scope, taskId, status, first, after)`: newest change first. */
  async memories(owner: MemoryOwner, filter: MemoryListFilter, page: PageRequest): Promise<Page<MemoryDocument>> {
    const collection = await this.collectionOf(memoriesProjection.name);
    if (collection === undefined) return { items: [], endCursor: undefined, hasMore: false };
    const where: Filter = {
      workspaceId: owner.workspaceId,
      userId: owner.userId,
      docType: 'memory',
      ...(filter.scope !== undefined ? { scopeKind: filter.scope } : {}),
      ...(filter.taskId !== undefined ? { taskId: filter.taskId } : {}),
      ...(filter.status !== undefined
        ? { status: filter.status }
        : { status: { $in: ['current', 'superseded', 'purged'] } }),
    };
    return this.documents.find<MemoryDocument>(collection, {
      filter: where,
      sort: [['changedSeq', -1]],
      limit: page.first,
      after: page.after,
    });
  }

  async memory(owner: MemoryOwner, memoryId: string): Promise<StoredDocument<MemoryDocument> | undefined> {
    const document = await this.get(memoryDocumentId(owner.workspaceId, owner.userId, 'memory', memoryId), owner);
    return document !== undefined && document.versions.length > 0 ? document : undefined;
  }

  /** The evidence named, in the order asked for; unknown ids are left out. */
  async evidence(owner: MemoryOwner, evidenceIds: readonly string[]): Promise<StoredDocument<MemoryDocument>[]> {
    const collection = await this.collectionOf(memoriesProjection.name);
    if (collection === undefined || evidenceIds.length === 0) return [];
    const found = await this.documents.getMany<MemoryDocument>(
      collection,
      evidenceIds.map((id) => memoryDocumentId(owner.workspaceId, owner.userId, 'evidence', id)),
    );
    return found.filter((d) => d.workspaceId === owner.workspaceId && d.evidence !== null);
  }

  async profile(owner: MemoryOwner): Promise<StoredDocument<MemoryDocument> | undefined> {
    const document = await this.get(memoryDocumentId(owner.workspaceId, owner.userId, 'profile'), owner);
    return document?.profile !== null ? document : undefined;
  }

  async forgetting(owner: MemoryOwner, forgettingId: string): Promise<StoredDocument<MemoryDocument> | undefined> {
    const document = await this.get(
      memoryDocumentId(owner.workspaceId, owner.userId, 'forgetting', forgettingId),
      owner,
    );
    return document?.forgetting !== null ? document : undefined;
  }

  async summary(owner: MemoryOwner, summaryId: string): Promise<StoredDocument<MemoryDocument> | undefined> {
    const document = await this.get(memoryDocumentId(owner.workspaceId, owner.userId, 'summary', summaryId), owner);
    return document?.summary !== null ? document : undefined;
  }

  private async get(id: string, owner: MemoryOwner): Promise<StoredDocument<MemoryDocument> | undefined> {
    const collection = await this.collectionOf(memoriesProjection.name);
    if (collection === undefined) return undefined;
    const document = await this.documents.get<MemoryDocument>(collection, id);
    // The key names the person; the workspace is checked as every read model does.
    return document?.workspaceId === owner.workspaceId ? document : undefined;
  }
}
