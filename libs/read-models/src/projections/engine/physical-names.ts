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

/** Physical collections of earlier versions of a projection, among the store's collections. */
export function olderPhysicalCollections(name: string, version: number, collections: readonly string[]): string[] {
  const pattern = new RegExp(`^${name}_v([0-9]+)(_streams)?$`);
  return collections.filter((collection) => {
    const match = pattern.exec(collection);
    return match !== null && Number(match[1]) < version;
  });
}
