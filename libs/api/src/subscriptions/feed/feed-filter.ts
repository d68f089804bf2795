import { z } from 'zod';
import { eventDefinitions, streamCategories, type StreamCategory } from '@lomo/contracts';
import type { EventFilter } from '@lomo/eventstore';
import { visibleStreamPrefixes, type Caller } from '@lomo/auth';
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
 * What the store itself can filter on: the visibility policy's narrowing (libs/auth
 * visibility-policy.ts: private streams to the caller's own, exposed types for integrations).
 * Narrowing only; the feed passes every event read to the policy again, and filters by workspace
 * after reading (event metadata is not indexed by the store).
 */
export function storeFilter(filter: FeedFilter, caller: Caller, workspaceId: string): EventFilter {
  const visible = visibleStreamPrefixes(caller, workspaceId, filter.categories);
  const prefixes = visible.streamPrefixes;
  let types: readonly string[] = filter.types;
  if (visible.eventTypes !== undefined) {
    const exposed = new Set(visible.eventTypes);
    types = filter.types.length > 0 ? filter.types.filter((t) => exposed.has(t)) : visible.eventTypes;
  }
  // An empty list is left out rather than passed: not every adapter reads it as "no constraint";
  // the policy check after reading then drops what is not visible.
  return {
    ...(prefixes.length > 0 ? { streamPrefixes: prefixes } : {}),
    ...(types.length > 0 ? { eventTypes: [...types] } : {}),
  };
}
