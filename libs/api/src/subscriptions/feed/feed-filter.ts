import { z } from 'zod';
import { eventDefinitions, streamCategories, type StreamCategory } from '@lomo/contracts';
import type { EventFilter } from '@lomo/eventstore';
import { validate } from '../../graphql/args/input-schemas';

const knownTypes = new Set(eventDefinitions.flatMap((d) => [d.type, ...(d.formerly ?? [])]));

const filterSchema = z
  .strictObject({
    categories: z
      .array(z.enum(streamCategories))
      .max(streamCategories.length)
      .nullish()
      .transform((v) => v ?? []),
    types: z
      .array(z.string().refine((t) => knownTypes.has(t), 'not an event type of the contracts'))
      .max(100)
      .nullish()
      .transform((v) => v ?? []),
  })
  .nullish()
  .transform((v) => v ?? { categories: [], types: [] });

export interface FeedFilter {
  categories: readonly StreamCategory[];
  types: readonly string[];
}

/** The client's filter, checked: unknown categories or event types are VALIDATION_FAILED. */
export function feedFilter(input: unknown): FeedFilter {
  const { categories, types } = validate(filterSchema, input);
  return { categories: [...new Set(categories)], types: [...new Set(types)] };
}

/**
 * What the store itself can filter on. Main streams carry the workspace in their id, so that
 * category narrows to the caller's own; the other categories are filtered by workspace after
 * reading (event metadata is not indexed by the store).
 */
export function storeFilter(filter: FeedFilter, workspaceId: string): EventFilter {
  const prefixes = filter.categories.map((c) => (c === 'main' ? `main-${workspaceId}.` : `${c}-`));
  // An empty list is left out rather than passed: not every adapter reads it as "no constraint".
  return {
    ...(prefixes.length > 0 ? { streamPrefixes: prefixes } : {}),
    ...(filter.types.length > 0 ? { eventTypes: filter.types } : {}),
  };
}
