import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from './mongo-errors';
import { VERSION } from './mongo-filter';

interface ClaimRow {
  _id: string;
  /** Claimant's clock, ms: only used to decide that a claimant has died. */
  at: number;
}

/** Starts with `_`, which collection names of the port cannot, so it never shows in listings. */
export const CLAIMS_COLLECTION = '_lomo_transition_claims';

export interface TransitionClaimsOptions {
  /** A claim older than this is taken for a crashed writer's and skipped over. */
  staleClaimMs: number;
  now?: () => number;
}

/**
 * Compare-and-set for servers whose filtered updates are not atomic (FerretDB 1.24), built on
 * the one thing they do make atomic: inserting a unique `_id`.
 *
 * To move a document from version v to v+1 a writer first inserts the claim (collection, id, v+1);
 * only one writer can, so at most one writer at a time holds the transition out of the current
 * version. Other claimants hold transitions the document has already passed (their expectation
 * is stale) and their version-filtered update matches nothing. The holder deletes its claim after
 * writing; a claim for a passed transition is harmless to delete or to re-insert, for the same
 * reason.
 *
 * A writer that crashed while holding the claim for the next transition would block the document
 * forever. Once that claim is older than `staleClaimMs` the next writer that collides with it
 * performs the transition as a no-op (version v -> v+1, same content), so writers move on to v+2,
 * and a late write by the presumed-dead holder, filtered on v, matches nothing.
 */
export class TransitionClaims {
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly options: TransitionClaimsOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Runs `write` while holding the claim for `toVersion`; false (nothing run) when taken. */
  async withClaim<R>(
    collection: string,
    id: string,
    toVersion: number,
    write: () => Promise<R>,
  ): Promise<{ won: false } | { won: true; result: R }> {
    const key = claimKey(collection, id, toVersion);
    try {
      await this.claims().insertOne({ _id: key, at: this.now() });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await this.skipIfStale(collection, id, toVersion, key);
      return { won: false };
    }
    try {
      return { won: true, result: await write() };
    } finally {
      // Best effort: a claim left behind is skipped over once stale.
      await this.claims()
        .deleteOne({ _id: key })
        .catch(() => undefined);
    }
  }

  private async skipIfStale(collection: string, id: string, toVersion: number, key: string): Promise<void> {
    const claim = await this.claims().findOne({ _id: key });
    if (claim === null || this.now() - claim.at < this.options.staleClaimMs) return;
    await this.db
      .collection<{ _id: string }>(collection)
      .updateOne({ _id: id, [VERSION]: toVersion - 1 }, { $set: { [VERSION]: toVersion } });
    // The document is past this transition now (by us or anyone), so the claim is garbage.
    await this.claims().deleteOne({ _id: key });
  }

  private claims(): Collection<ClaimRow> {
    return this.db.collection<ClaimRow>(CLAIMS_COLLECTION);
  }
}

/** JSON keeps the three parts unambiguous whatever characters the id holds. */
const claimKey = (collection: string, id: string, toVersion: number) => JSON.stringify([collection, id, toVersion]);
