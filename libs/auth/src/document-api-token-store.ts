import { isLomoError } from '@lomo/contracts';
import { MAX_PAGE_SIZE, type DocumentStore, type Filter, type StoredDocument } from '@lomo/read-models';
import { DEFAULT_TOKEN_KIND, tokenKinds, type ApiTokenRecord, type TokenKind } from './api-token';
import { TokenConflictError, type ApiTokenStore, type NewApiToken, type RevokeOutcome } from './api-token-store.port';

/** Not a projection: the projection engine only retires `<name>_v<n>` collections (physical-names.ts). */
export const API_TOKENS_COLLECTION = 'api_tokens';

interface TokenDocument {
  _id: string;
  workspaceId: string;
  userId: string;
  name: string;
  kind: string;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  [field: string]: string | null;
}

const toRecord = (doc: TokenDocument | StoredDocument<TokenDocument>): ApiTokenRecord => ({
  id: doc._id,
  workspaceId: doc.workspaceId,
  userId: doc.userId,
  name: doc.name,
  // A document written before kinds existed (or by a newer version with a kind this one does not
  // know) acts as a person: the narrowest kind, never more than it was issued for.
  kind: (tokenKinds as readonly string[]).includes(doc.kind) ? (doc.kind as TokenKind) : DEFAULT_TOKEN_KIND,
  createdAt: doc.createdAt,
  revokedAt: doc.revokedAt ?? null,
});

/**
 * API tokens as documents of the read-model store (SQLite embedded, MongoDB distributed), so every
 * API instance and the CLI share them. The secret hash has a unique index: a lookup is one indexed
 * find and a second token with the same hash is refused by the store itself.
 */
export class DocumentApiTokenStore implements ApiTokenStore {
  private indexes: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly documents: DocumentStore,
    private readonly options: { ownsDocuments?: boolean } = {},
  ) {}

  async insert(token: NewApiToken): Promise<ApiTokenRecord> {
    await this.ready();
    const doc: TokenDocument = {
      _id: token.id,
      workspaceId: token.workspaceId,
      userId: token.userId,
      name: token.name,
      kind: token.kind,
      secretHash: token.secretHash,
      createdAt: token.createdAt,
      revokedAt: null,
    };
    try {
      // expectedVersion 0: the id must be new (an upsert would silently replace a token).
      await this.documents.upsert(API_TOKENS_COLLECTION, doc, { expectedVersion: 0 });
      return toRecord(doc);
    } catch (error) {
      if (isLomoError(error) && (error.code === 'DOCUMENT_CONFLICT' || error.code === 'DOCUMENT_UNIQUE_VIOLATION')) {
        throw new TokenConflictError(token.id);
      }
      throw error;
    }
  }

  async findActiveByHash(secretHash: string): Promise<ApiTokenRecord | undefined> {
    await this.ready();
    const page = await this.documents.find<TokenDocument>(API_TOKENS_COLLECTION, {
      filter: { secretHash, revokedAt: null },
      limit: 1,
    });
    return page.items[0] === undefined ? undefined : toRecord(page.items[0]);
  }

  async list(filter: { workspaceId?: string; includeRevoked?: boolean } = {}): Promise<ApiTokenRecord[]> {
    await this.ready();
    const where: Record<string, string | null> = {};
    if (filter.workspaceId !== undefined) where.workspaceId = filter.workspaceId;
    if (!filter.includeRevoked) where.revokedAt = null;
    const records: ApiTokenRecord[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.documents.find<TokenDocument>(API_TOKENS_COLLECTION, {
        filter: where as Filter,
        sort: [['createdAt', 1]],
        limit: MAX_PAGE_SIZE,
        ...(after !== undefined ? { after } : {}),
      });
      records.push(...page.items.map(toRecord));
      if (!page.hasMore || page.endCursor === undefined) return records;
      after = page.endCursor;
    }
  }

  async revoke(id: string, at: string): Promise<RevokeOutcome> {
    await this.ready();
    // Compare-and-set on the document's version, so two revokes racing on two instances give
    // one `revoked` and one `already_revoked`, never two.
    for (;;) {
      const doc = await this.documents.get<TokenDocument>(API_TOKENS_COLLECTION, id);
      if (doc === undefined) return 'not_found';
      if (doc.revokedAt !== null && doc.revokedAt !== undefined) return 'already_revoked';
      const { _version, ...body } = doc;
      try {
        await this.documents.upsert(API_TOKENS_COLLECTION, { ...body, revokedAt: at }, { expectedVersion: _version });
        return 'revoked';
      } catch (error) {
        if (isLomoError(error) && error.code === 'DOCUMENT_CONFLICT') continue;
        throw error;
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.options.ownsDocuments) await this.documents.close();
  }

  private ready(): Promise<void> {
    this.indexes ??= this.documents
      .ensureIndexes(API_TOKENS_COLLECTION, [
        { fields: { secretHash: 1 }, unique: true },
        { fields: { workspaceId: 1, createdAt: 1 } },
      ])
      .catch((error: unknown) => {
        // Not memoised on failure: the next call tries again (e.g. the server was briefly away).
        this.indexes = undefined;
        throw error;
      });
    return this.indexes;
  }
}
