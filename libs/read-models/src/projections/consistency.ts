import { categoryOf, isValidStreamId } from '@lomo/contracts';
import type { DocumentStore } from '../document-store/document-store.port';
import type { AppliedStreamDocument } from './engine/applied-streams';
import { ConsistencyTimeoutError, InvalidConsistencyTokenError } from './engine/errors';
import { streamsCollection } from './engine/physical-names';
import type { ProjectionAliases } from './engine/projection-aliases';
import type { AnyProjection } from './engine/projection-definition';

export interface StreamRevision {
  streamId: string;
  revision: number;
}

/** The (stream, revision) pairs a mutation wrote. */
export type ConsistencyToken = readonly StreamRevision[];

const MAX_PAIRS = 32;

/** Opaque to clients: base64url of `[[streamId, revision], ...]`. */
export function encodeConsistencyToken(token: ConsistencyToken): string {
  return Buffer.from(JSON.stringify(token.map((p) => [p.streamId, p.revision]))).toString('base64url');
}

export function decodeConsistencyToken(encoded: string): ConsistencyToken {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidConsistencyTokenError('not a token this backend issued');
  }
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_PAIRS) {
    throw new InvalidConsistencyTokenError(`a token names 1 to ${MAX_PAIRS} stream revisions`);
  }
  return raw.map((pair: unknown) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new InvalidConsistencyTokenError('malformed pair');
    const [streamId, revision] = pair as [unknown, unknown];
    if (typeof streamId !== 'string' || !isValidStreamId(streamId))
      throw new InvalidConsistencyTokenError('bad stream id');
    if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) {
      throw new InvalidConsistencyTokenError('bad revision');
    }
    return { streamId, revision };
  });
}

/** Something in this process that applies events to the read models and says when it did. */
export interface AppliedSignal {
  /** `listener` runs after every batch applied; the result unsubscribes. */
  onApplied(listener: () => void): () => void;
}

export interface WaitOptions {
  timeoutMs: number;
  pollMs?: number;
  /** The caller's workspace: a pair whose stream belongs to another is refused. */
  workspaceId?: string;
}

/**
 * Answers whether the read models have applied a token. A pair (stream S, revision r) is applied
 * when, for every projection that reads S's category, the collection its alias points at has
 * `<collection>_streams/S` at r or beyond, i.e. every event of S up to r is in every document
 * readers can see. That per-projection record is the "stream position": written after the
 * documents, it never claims more than they hold; while a projection is being rebuilt its alias
 * still names the old collection, so a token waits for the switch rather than being answered by
 * documents nobody reads. A category no projection reads is trivially applied.
 */
export class ReadModelConsistency {
  constructor(
    private readonly documents: DocumentStore,
    private readonly aliases: ProjectionAliases,
    private readonly projections: ReadonlyArray<Pick<AnyProjection, 'name' | 'categories'>>,
    /** The projector of this process, when there is one: a wait checks again as soon as it applied a batch. */
    private readonly applied?: AppliedSignal,
  ) {}

  /** The pairs not applied yet; empty when the read models reflect the whole token. */
  async pending(token: ConsistencyToken, workspaceId?: string): Promise<StreamRevision[]> {
    const byCollection = new Map<string, StreamRevision[]>();
    const pending = new Set<StreamRevision>();
    for (const pair of token) {
      const category = categoryOf(pair.streamId);
      for (const projection of this.projections) {
        if (!projection.categories.some((c) => c === category)) continue;
        const collection = await this.aliases.collectionOf(projection.name);
        if (collection === undefined) {
          pending.add(pair);
          continue;
        }
        const pairs = byCollection.get(collection) ?? [];
        pairs.push(pair);
        byCollection.set(collection, pairs);
      }
    }
    for (const [collection, pairs] of byCollection) {
      const applied = await this.documents.getMany<AppliedStreamDocument>(
        streamsCollection(collection),
        pairs.map((p) => p.streamId),
      );
      const byStream = new Map(applied.map((d) => [d._id, d]));
      for (const pair of pairs) {
        const stream = byStream.get(pair.streamId);
        if (stream !== undefined && workspaceId !== undefined && stream.workspaceId !== workspaceId) {
          throw new InvalidConsistencyTokenError('the token names a stream of another workspace');
        }
        if (stream === undefined || stream.revision < pair.revision) pending.add(pair);
      }
    }
    return token.filter((pair) => pending.has(pair));
  }

  /**
   * Waits (bounded) until the token is applied; ConsistencyTimeoutError after `timeoutMs`. Checks
   * again every `pollMs` (another process may apply it) and, with an AppliedSignal, as soon as
   * this process's projector applied a batch.
   */
  async waitFor(token: ConsistencyToken, options: WaitOptions): Promise<void> {
    const started = Date.now();
    const pollMs = options.pollMs ?? 10;
    for (;;) {
      // Listening before the check: a batch applied while it runs still wakes the wait below.
      let wake: () => void = () => undefined;
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const unsubscribe = this.applied?.onApplied(() => wake());
      let timer: NodeJS.Timeout | undefined;
      try {
        const pending = await this.pending(token, options.workspaceId);
        if (pending.length === 0) return;
        const waited = Date.now() - started;
        if (waited >= options.timeoutMs) throw new ConsistencyTimeoutError(pending, waited);
        await Promise.race([
          woken,
          new Promise((resolve) => (timer = setTimeout(resolve, Math.min(pollMs, options.timeoutMs - waited)))),
        ]);
      } finally {
        clearTimeout(timer);
        unsubscribe?.();
      }
    }
  }
}
