import { InvalidProjectionError } from './errors';
import type { AnyProjection } from './projection-definition';

/** Logical name -> physical collection, one document per projection (see ProjectionAliases). */
export const ALIASES_COLLECTION = 'projection_aliases';
/** Resume hints: the global position each physical collection has been swept to. */
export const CHECKPOINTS_COLLECTION = 'projection_checkpoints';

const NAME = /^[a-z][a-z0-9_]{0,40}$/;
const MAX_VERSION = 1_000_000;

export function assertProjectionShape(definition: AnyProjection): void {
  if (!NAME.test(definition.name)) {
    throw new InvalidProjectionError(definition.name, 'name must be 1-41 of [a-z0-9_], starting with a letter');
  }
  if (!Number.isSafeInteger(definition.version) || definition.version < 1 || definition.version > MAX_VERSION) {
    throw new InvalidProjectionError(definition.name, `version must be an integer 1..${MAX_VERSION}`);
  }
  if (definition.categories.length === 0) throw new InvalidProjectionError(definition.name, 'no source category');
}

/** Documents of one version of a projection: `tasks_v3`. */
export const physicalCollection = (definition: Pick<AnyProjection, 'name' | 'version'>): string =>
  `${definition.name}_v${definition.version}`;

/**
 * The applied revision of each source stream for one physical collection: `tasks_v3_streams`.
 * Kept next to the documents so a rebuild starts from nothing and is dropped with them.
 */
export const streamsCollection = (physical: string): string => `${physical}_streams`;

/**
 * An operator's rebuild of the version readers use goes into a fresh collection next to it:
 * `tasks_v3_r1`, `tasks_v3_r2`, ... (the first build of a version is `tasks_v3`, rebuild 0).
 * Both forms stay recognisable by name, version and rebuild number, so retirement finds them.
 */
export const rebuildCollection = (definition: Pick<AnyProjection, 'name' | 'version'>, rebuild: number): string =>
  rebuild === 0 ? physicalCollection(definition) : `${physicalCollection(definition)}_r${rebuild}`;

export interface PhysicalName {
  version: number;
  /** 0 for `<name>_v<version>`, n for `<name>_v<version>_r<n>`. */
  rebuild: number;
  /** The applied-streams collection of one of them. */
  streams: boolean;
}

/** What a collection of projection `name` is, or undefined when it is not one of its collections. */
export function parsePhysical(name: string, collection: string): PhysicalName | undefined {
  // `name` is [a-z0-9_] (assertProjectionShape): nothing to escape.
  const match = new RegExp(`^${name}_v([0-9]+)(?:_r([0-9]+))?(_streams)?$`).exec(collection);
  if (match === null) return undefined;
  return { version: Number(match[1]), rebuild: match[2] === undefined ? 0 : Number(match[2]), streams: !!match[3] };
}

/** Whether `collection` holds the documents of this version of the projection (first build or a rebuild). */
export function isCollectionOf(definition: Pick<AnyProjection, 'name' | 'version'>, collection: string): boolean {
  const parsed = parsePhysical(definition.name, collection);
  return parsed !== undefined && !parsed.streams && parsed.version === definition.version;
}

/** A rebuild collection of this version that none of `collections` uses yet (nor its streams). */
export function nextRebuildCollection(
  definition: Pick<AnyProjection, 'name' | 'version'>,
  collections: readonly string[],
): string {
  let highest = 0;
  for (const collection of collections) {
    const parsed = parsePhysical(definition.name, collection);
    if (parsed?.version === definition.version) highest = Math.max(highest, parsed.rebuild);
  }
  return rebuildCollection(definition, highest + 1);
}

/** Physical collections (either form, and their streams) of earlier versions of a projection. */
export function olderPhysicalCollections(name: string, version: number, collections: readonly string[]): string[] {
  return collections.filter((collection) => {
    const parsed = parsePhysical(name, collection);
    return parsed !== undefined && parsed.version < version;
  });
}

/**
 * Collections (and streams) of this very version that nobody uses: not the alias's, not the one a
 * rebuild under a live lease is filling. Left behind by an operator's rebuild (the collection it
 * replaced, or its own after a crash) when no instance was there to drop them.
 */
export function unusedCollectionsOfVersion(
  definition: Pick<AnyProjection, 'name' | 'version'>,
  inUse: ReadonlyArray<string | null | undefined>,
  collections: readonly string[],
): string[] {
  const kept = new Set(inUse.filter((c): c is string => typeof c === 'string'));
  return collections.filter((collection) => {
    const parsed = parsePhysical(definition.name, collection);
    if (parsed === undefined || parsed.version !== definition.version) return false;
    const documents = parsed.streams ? collection.slice(0, -'_streams'.length) : collection;
    return !kept.has(documents);
  });
}
