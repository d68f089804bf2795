import type { EventEnvelope } from '@lomo/contracts';
import type { EventStore, Position } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import type { DocumentStore } from '../../document-store/document-store.port';
import { streamsCollection } from './physical-names';
import type { AnyProjection } from './projection-definition';
import { ProjectionEngine, type EngineContext, type EngineTuning } from './projection-engine';

export interface RebuildTarget {
  definition: AnyProjection;
  physical: string;
}

export interface RebuildProgress {
  events: number;
  lastEvent: EventEnvelope | undefined;
}

export interface RebuildOptions {
  documents: DocumentStore;
  events: Pick<EventStore, 'readAll' | 'readStream'>;
  context: EngineContext;
  logger: Logger;
  batchSize: number;
  tuning?: EngineTuning;
  /** After each batch (lease renewal, progress); throwing aborts the rebuild. */
  onBatch?: (progress: RebuildProgress) => Promise<void>;
}

export interface RebuildResult {
  /** Global position of the last event read, undefined when the log held none. */
  position: Position | undefined;
  events: number;
  millis: number;
}

export const prefixesOf = (definitions: readonly AnyProjection[]): string[] => [
  ...new Set(definitions.flatMap((d) => d.categories.map((c) => `${c}-`))),
];

/**
 * Builds fresh physical collections from the whole log in one pass for all targets: batches of
 * events in global order (so each stream in order, no gaps, no duplicates), documents cached
 * between batches and written with bulk writes. Whatever the collections held is dropped first,
 * so an interrupted rebuild simply starts again.
 */
export async function rebuildCollections(
  targets: readonly RebuildTarget[],
  options: RebuildOptions,
): Promise<RebuildResult> {
  const started = performance.now();
  const { documents, events, logger } = options;
  const engines: ProjectionEngine[] = [];
  for (const { definition, physical } of targets) {
    await documents.dropCollection(physical);
    await documents.dropCollection(streamsCollection(physical));
    await documents.ensureIndexes(physical, definition.indexes);
    engines.push(new ProjectionEngine(definition, physical, 'rebuild', { ...options, logger }));
  }
  const filter = { streamPrefixes: prefixesOf(targets.map((t) => t.definition)) };
  let position: Position | undefined;
  let count = 0;
  for (;;) {
    const page = await events.readAll({ fromPosition: position ?? 'start', filter, maxCount: options.batchSize });
    if (page.length === 0) break;
    for (const engine of engines) await engine.apply(page);
    count += page.length;
    position = page[page.length - 1].metadata.globalPosition;
    await options.onBatch?.({ events: count, lastEvent: page[page.length - 1] });
    if (page.length < options.batchSize) break;
  }
  for (const engine of engines) await engine.flush();
  const millis = performance.now() - started;
  logger.info(
    { collections: targets.map((t) => t.physical), events: count, millis: Math.round(millis), position },
    'rebuilt from the event store',
  );
  return { position, events: count, millis };
}
