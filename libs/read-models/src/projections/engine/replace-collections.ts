import type { EventStore, Position } from '@lomo/eventstore';
import type { Logger } from '@lomo/observability';
import type { DocumentStore } from '../../document-store/document-store.port';
import { RebuildInterruptedError, RebuildRefusedError } from './errors';
import { isCollectionOf, nextRebuildCollection, streamsCollection } from './physical-names';
import { ProjectionAliases, type ProjectionAliasDocument } from './projection-aliases';
import { ProjectionCheckpoints } from './projection-checkpoints';
import type { AnyProjection } from './projection-definition';
import { ProjectionEngine } from './projection-engine';
import { prefixesOf, rebuildCollections, type RebuildProgress } from './rebuild';
import { RebuildLease } from './rebuild-lease';
import { TurnTaskLookup } from './turn-task-lookup';

export interface ReplaceCollectionsOptions {
  documents: DocumentStore;
  events: Pick<EventStore, 'readAll' | 'readStream'>;
  logger: Logger;
  /** Owner of the rebuild leases (unique per run: an operator's token id and a fresh id). */
  owner: string;
  now: () => Date;
  /** Events per read (and per bulk write round); default 5 000 as the runner. */
  batchSize?: number;
  /** Default 60 s as the runner; renewed on progress. */
  leaseMs?: number;
  /** Aborting ends the rebuild at its next batch: nothing is switched, the fresh collections go. */
  signal?: AbortSignal;
  /** After each batch of the rebuild's pass over the log. */
  onBatch?: (progress: RebuildProgress) => void;
}

export interface ReplacedProjection {
  name: string;
  version: number;
  /** The collection readers used before the switch. */
  from: string;
  /** The fresh collection readers use now. */
  collection: string;
  /** Collections the switch retired: drop them once readers' alias caches expired (dropRetired). */
  retired: string[];
}

export interface ReplaceCollectionsResult {
  projections: ReplacedProjection[];
  /** Projections whose alias moved before their switch (the others switched): not rebuilt. */
  refused: Array<{ name: string; reason: string }>;
  /** Events read by the pass over the log. */
  events: number;
  /** Events read after it, up to the head, before the switch. */
  caughtUp: number;
  /** Global position the fresh collections reached; undefined when the log held none of their events. */
  position: Position | undefined;
  millis: number;
}

interface Plan {
  definition: AnyProjection;
  /** The collection the alias named when planned: one of this version. */
  from: string;
  collection: string;
}

/**
 * An operator's rebuild (DESIGN.md §4, "Read models"): rebuilds the projections from the whole
 * log into FRESH collections next to the live ones (`<name>_v<version>_r<n>`, of the version
 * readers use), catches them up to the head, and switches each alias with a compare-and-set that
 * holds only while the alias still names the collection the rebuild started from and this owner
 * still holds the rebuild lease. Live runners follow the switch (LiveProjections.follow) and
 * resume from the fresh collection's own revisions and checkpoint. Refused (RebuildRefusedError,
 * nothing changed) when the live version is not this code's (or none is), another rebuild holds a
 * lease, or every alias moved before its switch; one that moved while others switched is listed
 * in `refused`. On any failure the fresh collections not switched are dropped and their leases
 * given up.
 */
export async function replaceCollections(
  definitions: readonly AnyProjection[],
  options: ReplaceCollectionsOptions,
): Promise<ReplaceCollectionsResult> {
  const started = performance.now();
  const { documents, events, logger, owner, now } = options;
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 5_000;
  // No cache: every decision here must see the alias as it is.
  const aliases = new ProjectionAliases(documents, { now, cacheTtlMs: 0 });
  const checkpoints = new ProjectionCheckpoints(documents, now);
  const plans = await planReplacements(definitions, aliases, await documents.listCollections());
  const claimed: Plan[] = [];
  const switched = new Set<Plan>();
  /** Leases given up and fresh collections dropped: what was not switched leaves nothing behind. */
  const giveUp = async (unswitched: readonly Plan[]) => {
    for (const plan of unswitched) {
      await aliases.releaseRebuild(plan.definition.name, owner);
      await dropRetired(documents, [plan.collection], now);
    }
  };
  const claim = async (plan: Plan) => {
    const outcome = await claimPlan(aliases, plan, owner, leaseMs);
    if (outcome !== 'claimed') throw refusal(plan, outcome, await aliases.read(plan.definition.name));
  };
  try {
    for (const plan of plans) {
      await claim(plan);
      claimed.push(plan);
    }
    const lease = new RebuildLease(async () => Promise.all(claimed.map(claim)).then(() => undefined), leaseMs, now);
    const names = plans.map((p) => p.definition.name);
    const context = new TurnTaskLookup(events);
    const rebuilt = await rebuildCollections(
      plans.map((p) => ({ definition: p.definition, physical: p.collection })),
      {
        documents,
        events,
        context,
        logger,
        batchSize,
        onBatch: async (progress) => {
          options.onBatch?.(progress);
          // A batch is read and applied without yielding to timers: let them run (a progress bar's
          // redraw, a signal's abort) before the next one.
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (options.signal?.aborted) throw new RebuildInterruptedError(names);
          await lease.renewIfDue();
        },
      },
    );
    // What was appended during the pass, applied as a live engine does (readers do not see it yet).
    const engines = plans.map(
      (p) => new ProjectionEngine(p.definition, p.collection, 'live', { documents, events, context, logger }),
    );
    let position = rebuilt.position;
    let caughtUp = 0;
    for (;;) {
      const filter = { streamPrefixes: prefixesOf(plans.map((p) => p.definition)) };
      const page = await events.readAll({ fromPosition: position ?? 'start', filter, maxCount: batchSize });
      if (page.length === 0) break;
      for (const engine of engines) await engine.apply(page);
      caughtUp += page.length;
      position = page[page.length - 1].metadata.globalPosition;
      await lease.renewIfDue();
      if (page.length < batchSize) break;
    }
    if (position !== undefined) for (const plan of plans) await checkpoints.save(plan.collection, position);
    const replaced: ReplacedProjection[] = [];
    const refused: RebuildRefusedError[] = [];
    for (const plan of plans) {
      const retired = await switchPlan(aliases, plan, owner);
      if (retired === undefined) {
        // Lost the alias to someone else at the last moment: this one is not switched, the others are.
        refused.push(refusal(plan, 'moved', await aliases.read(plan.definition.name)));
        continue;
      }
      switched.add(plan);
      const { name, version } = plan.definition;
      replaced.push({ name, version, from: plan.from, collection: plan.collection, retired });
      logger.info({ projection: name, from: plan.from, collection: plan.collection }, 'alias switched by a rebuild');
    }
    if (replaced.length === 0 && refused.length > 0) throw refused[0];
    await giveUp(plans.filter((p) => !switched.has(p)));
    return {
      projections: replaced,
      refused: refused.map((r) => ({ name: r.projection, reason: r.reason })),
      events: rebuilt.events,
      caughtUp,
      position,
      millis: performance.now() - started,
    };
  } catch (error) {
    await giveUp(claimed.filter((p) => !switched.has(p)));
    throw error;
  }
}

/** Drops retired collections with their applied streams and checkpoints. */
export async function dropRetired(
  documents: DocumentStore,
  collections: readonly string[],
  now: () => Date = () => new Date(),
): Promise<void> {
  const checkpoints = new ProjectionCheckpoints(documents, now);
  for (const collection of collections) {
    await documents.dropCollection(collection);
    await documents.dropCollection(streamsCollection(collection));
    await checkpoints.remove(collection);
  }
}

async function planReplacements(
  definitions: readonly AnyProjection[],
  aliases: ProjectionAliases,
  collections: readonly string[],
): Promise<Plan[]> {
  const plans: Plan[] = [];
  for (const definition of definitions) {
    const alias = await aliases.read(definition.name);
    const from = alias?.collection ?? null;
    if (from === null || !isCollectionOf(definition, from)) {
      throw new RebuildRefusedError(definition.name, versionMismatch(definition.version, alias?.version ?? null));
    }
    plans.push({ definition, from, collection: nextRebuildCollection(definition, [...collections, from]) });
  }
  return plans;
}

/**
 * Only the version readers use is rebuilt here: a first build or a version change is the
 * projector's (it rebuilds on start, under the same lease), so this tool never switches readers
 * to a version no projector runs.
 */
function versionMismatch(known: number, live: number | null): string {
  if (live === null) return 'it was never built: the projector builds it when it starts';
  if (live > known) return `version ${live} is live and this tool knows version ${known}: use a newer one`;
  return `version ${live} is live and this tool knows version ${known}: the projector of version ${known} rebuilds it when it starts`;
}

function claimPlan(aliases: ProjectionAliases, plan: Plan, owner: string, leaseMs: number) {
  const { name, version } = plan.definition;
  return aliases.claimReplacement(name, version, plan.from, plan.collection, owner, leaseMs);
}

function switchPlan(aliases: ProjectionAliases, plan: Plan, owner: string): Promise<string[] | undefined> {
  const { name, version } = plan.definition;
  return aliases.switchReplacement(name, version, plan.from, plan.collection, owner);
}

function refusal(plan: Plan, outcome: string, alias: ProjectionAliasDocument | undefined): RebuildRefusedError {
  const lease = alias?.rebuild;
  if (outcome === 'taken' && lease != null) {
    return new RebuildRefusedError(
      plan.definition.name,
      `${lease.owner} is rebuilding it into ${lease.collection} (lease until ${lease.leaseUntil})`,
    );
  }
  return new RebuildRefusedError(
    plan.definition.name,
    `its alias changed meanwhile (now ${alias?.collection ?? 'none'}, version ${alias?.version ?? 'none'}): try again`,
  );
}
