import type { Db } from 'mongodb';

/**
 * What the adapter must work around. FerretDB 1.24 runs an update as "query in Go, then UPDATE
 * by _id" in separate SQLite transactions (FerretDB issues #3017, #3040), so a filter on the
 * version is not a compare-and-set there; and one update command holds a pooled SQLite connection
 * per statement until it returns, so more than ~100 statements in one command deadlock its pool.
 */
export interface ServerProfile {
  /** The server applies a filtered single-document update atomically (MongoDB does). */
  atomicFilteredUpdates: boolean;
  /** Update statements per command; undefined = no limit beyond the driver's own batching. */
  maxUpdatesPerCommand: number | undefined;
}

export const MONGODB_PROFILE: ServerProfile = { atomicFilteredUpdates: true, maxUpdatesPerCommand: undefined };
// 25 leaves room for a few concurrent bulk writers under FerretDB's 100 connections per database.
export const FERRETDB_PROFILE: ServerProfile = { atomicFilteredUpdates: false, maxUpdatesPerCommand: 25 };

/** FerretDB answers buildInfo with a `ferretdbVersion` field; MongoDB does not. */
export async function detectServerProfile(db: Db): Promise<ServerProfile> {
  const info = await db.admin().command({ buildInfo: 1 });
  return typeof info.ferretdbVersion === 'string' ? FERRETDB_PROFILE : MONGODB_PROFILE;
}
