import { DocumentConflictError } from '../../document-store/document-store.errors';
import type { DocumentInput, DocumentStore, StoredDocument } from '../../document-store/document-store.port';
import { ProjectionWriteConflictError } from './errors';
import { ALIASES_COLLECTION } from './physical-names';

/**
 * One document per projection in `projection_aliases`, `_id` = logical name. Readers resolve the
 * physical collection through it; a rebuild fills a fresh collection and then switches `collection`
 * with one compare-and-set write, which MongoDB and FerretDB do alike (no renameCollection, no
 * transaction). `rebuild` is a lease: one instance rebuilds a version, the others wait for the switch.
 */
export type ProjectionAliasDocument = DocumentInput & {
  /** The physical collection readers use; null until a first build completed. */
  collection: string | null;
  version: number | null;
  switchedAt: string | null;
  /** Collections the last switch retired (dropped after a grace period). */
  retired: string[];
  rebuild: { collection: string; version: number; owner: string; leaseUntil: string } | null;
};

export type RebuildClaim = 'claimed' | 'taken' | 'done';
export type ReplacementClaim = 'claimed' | 'taken' | 'moved';

const MAX_ATTEMPTS = 20;

export interface ProjectionAliasesOptions {
  /** How long readers may use a resolved collection before asking again. */
  cacheTtlMs?: number;
  now?: () => Date;
}

export class ProjectionAliases {
  private readonly cache = new Map<string, { collection: string | undefined; until: number }>();
  private readonly cacheTtlMs: number;
  private readonly now: () => Date;

  constructor(
    private readonly documents: DocumentStore,
    options: ProjectionAliasesOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 1_000;
    this.now = options.now ?? (() => new Date());
  }

  read(name: string): Promise<StoredDocument<ProjectionAliasDocument> | undefined> {
    return this.documents.get<ProjectionAliasDocument>(ALIASES_COLLECTION, name);
  }

  /** The collection readers of `name` should use; undefined until it was first built. */
  async collectionOf(name: string): Promise<string | undefined> {
    const cached = this.cache.get(name);
    const now = Date.now();
    if (cached !== undefined && cached.until > now) return cached.collection;
    const collection = (await this.read(name))?.collection ?? undefined;
    this.cache.set(name, { collection, until: now + this.cacheTtlMs });
    return collection;
  }

  /** Takes (or renews) the lease on rebuilding `version` of `name`. */
  claimRebuild(
    name: string,
    version: number,
    collection: string,
    owner: string,
    leaseMs: number,
  ): Promise<RebuildClaim> {
    return this.update(
      name,
      (alias): RebuildClaim | ProjectionAliasDocument => {
        if (alias.version !== null && alias.version >= version) return 'done';
        const held = alias.rebuild;
        const now = this.now();
        if (
          held !== null &&
          held.owner !== owner &&
          held.version >= version &&
          Date.parse(held.leaseUntil) > now.getTime()
        ) {
          return 'taken';
        }
        const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
        return { ...alias, rebuild: { collection, version, owner, leaseUntil } };
      },
      'claimed',
    );
  }

  /** Points readers at `collection`; returns the collections it retired (none if already newer). */
  async switchTo(name: string, version: number, collection: string): Promise<string[]> {
    let retired: string[] = [];
    await this.update(
      name,
      (alias): 'done' | ProjectionAliasDocument => {
        if (alias.version !== null && alias.version >= version) return 'done';
        retired = alias.collection === null ? [] : [alias.collection];
        return { ...alias, collection, version, switchedAt: this.now().toISOString(), retired, rebuild: null };
      },
      'done',
    );
    this.cache.delete(name);
    return retired;
  }

  /**
   * Takes (or renews) the lease on rebuilding the version readers use, into a fresh `collection`
   * (an operator's rebuild): only while the alias still names `from` at `version`. 'moved' when it
   * no longer does, 'taken' when another owner's lease is live.
   */
  claimReplacement(
    name: string,
    version: number,
    from: string,
    collection: string,
    owner: string,
    leaseMs: number,
  ): Promise<ReplacementClaim> {
    return this.update(
      name,
      (alias): ReplacementClaim | ProjectionAliasDocument => {
        if (alias.version !== version || alias.collection !== from) return 'moved';
        const held = alias.rebuild;
        const now = this.now();
        if (held !== null && held.owner !== owner && Date.parse(held.leaseUntil) > now.getTime()) return 'taken';
        const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
        return { ...alias, rebuild: { collection, version, owner, leaseUntil } };
      },
      'claimed',
    );
  }

  /**
   * The compare-and-set switch of an operator's rebuild: readers move from `from` to `collection`
   * only while the alias still names `from` at `version` and `owner` holds the lease. Returns the
   * collections it retired, or undefined when the alias moved or the lease went to another owner.
   */
  async switchReplacement(
    name: string,
    version: number,
    from: string,
    collection: string,
    owner: string,
  ): Promise<string[] | undefined> {
    const outcome = await this.update(
      name,
      (alias): 'refused' | ProjectionAliasDocument => {
        if (alias.version !== version || alias.collection !== from || alias.rebuild?.owner !== owner) return 'refused';
        return { ...alias, collection, switchedAt: this.now().toISOString(), retired: [from], rebuild: null };
      },
      'switched',
    );
    this.cache.delete(name);
    return outcome === 'switched' ? [from] : undefined;
  }

  /** Gives the lease up (a rebuild that failed or was refused); another owner's lease is left alone. */
  async releaseRebuild(name: string, owner: string): Promise<void> {
    await this.update(
      name,
      (alias): 'not_held' | ProjectionAliasDocument =>
        alias.rebuild?.owner === owner ? { ...alias, rebuild: null } : 'not_held',
      'released',
    );
  }

  /** Compare-and-set loop: `change` returns the new document, or a verdict meaning "no write". */
  private async update<V extends string>(
    name: string,
    change: (alias: ProjectionAliasDocument) => V | ProjectionAliasDocument,
    written: V,
  ): Promise<V> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const stored = await this.read(name);
      const { _version: version = 0, ...current } = stored ?? blankAlias(name);
      const next = change(current as ProjectionAliasDocument);
      if (typeof next === 'string') return next;
      try {
        await this.documents.upsert(ALIASES_COLLECTION, next, { expectedVersion: version });
        return written;
      } catch (error) {
        if (!(error instanceof DocumentConflictError)) throw error;
      }
    }
    throw new ProjectionWriteConflictError(ALIASES_COLLECTION, name, MAX_ATTEMPTS);
  }
}

const blankAlias = (name: string): StoredDocument<ProjectionAliasDocument> => ({
  _id: name,
  _version: 0,
  collection: null,
  version: null,
  switchedAt: null,
  retired: [],
  rebuild: null,
});
