import type { Caller } from '@lomo/auth';
import type { Clock, IdGenerator } from '@lomo/contracts';
import type { Logger } from '@lomo/observability';
import { dropRetired, RebuildRefusedError, replaceCollections, type ReplaceCollectionsResult } from '@lomo/read-models';
import { assertOperator } from '../../access/operator-access';
import { recordOperatorAction } from '../../audit/record-operator-action';
import { ConfirmationRequiredError } from '../../errors';
import { numericPosition } from '../../positions';
import type { ProjectionSources } from './projection-sources';
import { ProjectionRebuildRefusedError } from './rebuild-refused';
import { selectProjections } from './select-projections';

export interface RebuildProgressReport {
  /** Events read from the log so far (of the projections' categories). */
  events: number;
  /** Global position reached, when positions are numbers (SQLite): compare with `total`. */
  position?: number;
  /** The head position when the rebuild started, when positions are numbers: events in the log. */
  total?: number;
  ratePerSecond: number;
}

export interface RebuildProjectionsOptions {
  /** Projection names; every projection when absent or empty. */
  names?: readonly string[];
  /** The rebuild changes what readers see: refused without it. */
  confirm: boolean;
  onProgress?: (progress: RebuildProgressReport) => void;
  /** Once every alias switched, before the readers' grace: the replaced collections go after `retireAfterMs`. */
  onSwitched?: (switched: { retired: string[]; retireAfterMs: number }) => void;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  /** Readers may hold a replaced collection's name this long (alias caches, 1 s); default 5 s as the projector. */
  retireAfterMs?: number;
  /** Events per read; default 5 000 as the projector. */
  batchSize?: number;
  /** Aborting (Ctrl-C) ends the rebuild at its next batch: nothing switched, nothing left behind. */
  signal?: AbortSignal;
}

export interface RebuildSummary {
  names: string[];
  /** Events read by the pass over the log, then caught up before the switch. */
  events: number;
  caughtUp: number;
  millis: number;
  ratePerSecond: number;
  /** Per projection: the collection readers used before and the fresh one they use now. */
  collections: Array<{ name: string; from: string; collection: string }>;
  /** Replaced collections, dropped once readers' grace passed. */
  retired: string[];
  /** Projections whose alias moved before their switch (the others switched). */
  refused: Array<{ name: string; reason: string }>;
}

const COMMAND = 'projections rebuild';

/**
 * `lomo projections rebuild [--name P] --confirm`: rebuilds read models from the whole log into
 * fresh collections, catches them up, switches their aliases with a compare-and-set and retires
 * the replaced collections after the readers' grace (replaceCollections of @lomo/read-models).
 * A projector running on the same stores follows the switch and goes on in the new collections.
 * Operators only; recorded as `projections_rebuilt` on the operator's stream.
 */
export async function rebuildProjections(
  sources: ProjectionSources,
  caller: Caller,
  options: RebuildProjectionsOptions,
): Promise<RebuildSummary> {
  assertOperator(caller, COMMAND);
  const definitions = selectProjections(sources.projections, options.names);
  if (!options.confirm) throw new ConfirmationRequiredError(COMMAND);
  const { clock, logger } = options;
  const total = numericPosition(await sources.events.headPosition());
  const startedAt = clock.now().getTime();
  const rate = (events: number) => {
    const seconds = (clock.now().getTime() - startedAt) / 1000;
    return seconds > 0 ? Math.round(events / seconds) : 0;
  };
  let result: ReplaceCollectionsResult;
  try {
    result = await replaceCollections(definitions, {
      documents: sources.documents,
      events: sources.events,
      logger,
      owner: `operator:${caller.tokenId}:${options.ids.uuid()}`,
      now: () => clock.now(),
      batchSize: options.batchSize,
      signal: options.signal,
      onBatch: ({ events, lastEvent }) =>
        options.onProgress?.({
          events,
          position: numericPosition(lastEvent?.metadata.globalPosition),
          total,
          ratePerSecond: rate(events),
        }),
    });
  } catch (error) {
    if (error instanceof RebuildRefusedError) throw new ProjectionRebuildRefusedError(error.projection, error.reason);
    throw error;
  }
  const retired = result.projections.flatMap((p) => p.retired);
  const retireAfterMs = options.retireAfterMs ?? 5_000;
  options.onSwitched?.({ retired, retireAfterMs });
  await waitFor(retireAfterMs);
  await dropRetired(sources.documents, retired, () => clock.now());
  const summary: RebuildSummary = {
    names: result.projections.map((p) => p.name),
    events: result.events,
    caughtUp: result.caughtUp,
    millis: Math.round(result.millis),
    ratePerSecond: result.millis > 0 ? Math.round(result.events / (result.millis / 1000)) : 0,
    collections: result.projections.map(({ name, from, collection }) => ({ name, from, collection })),
    retired,
    refused: result.refused,
  };
  await recordOperatorAction(
    sources.events,
    {
      caller,
      action: 'projections_rebuilt',
      via: { tool: 'cli', command: COMMAND },
      outcome: summary.refused.length > 0 ? 'partial' : 'completed',
      details: {
        names: summary.names,
        events: summary.events + summary.caughtUp,
        millis: summary.millis,
        collections: summary.collections.map((c) => c.collection),
        ...(summary.refused.length > 0 ? { refused: summary.refused.map((r) => r.name) } : {}),
      },
    },
    { clock, ids: options.ids },
  );
  logger.info(
    { names: summary.names, events: summary.events, millis: summary.millis, collections: summary.collections },
    'projections rebuilt and switched',
  );
  return summary;
}

// Not unref'd: a CLI with nothing else to do must still wait for it.
const waitFor = (ms: number) => (ms <= 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, ms)));
