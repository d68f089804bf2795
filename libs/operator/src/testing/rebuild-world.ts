import { join } from 'node:path';
import type { Caller } from '@lomo/auth';
import type { Clock, IdGenerator } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import { makeTempDir } from '@lomo/eventstore/testing';
import { silentLogger } from '@lomo/observability';
import {
  ProjectionAliases,
  ProjectionRunner,
  rebuildCollections,
  readModelProjections,
  SqliteDocumentStore,
  TurnTaskLookup,
  physicalCollection,
  type AnyProjection,
} from '@lomo/read-models';
import { counterUuids, generatedLog, readCollection, writeGeneratedLog } from '@lomo/read-models/testing';

export const operatorCaller: Caller = {
  tokenId: 'tok-operator',
  tokenName: 'ops',
  workspaceId: 'ops',
  userId: 'alice',
  kind: 'operator',
};

/**
 * A SQLite event store holding a generated log (the projection bench's), and read-model files
 * several "processes" open separately (a projector's runner, the operator's CLI), as they share
 * LOMO_DATA_DIR. `append` adds more generated events through the store, as writers would.
 */
export class RebuildWorld {
  readonly clock: Clock = { now: () => new Date() };
  readonly ids: IdGenerator;
  private readonly opened: SqliteDocumentStore[] = [];
  private readonly later: Generator<{ streamId: string; type: string; data: Record<string, unknown> }>;

  private constructor(
    readonly projections: readonly AnyProjection[],
    readonly events: SqliteEventStore,
    private readonly documentsFile: string,
    private readonly nextUuid: () => string,
    private readonly temp: { remove: () => void },
  ) {
    this.ids = { uuid: () => this.nextUuid() };
    // Later events: other tasks of another workspace, so they never touch the first log's streams' order.
    this.later = generatedLog(1_000_000, { workspaceId: 'later', nextUuid, concurrentTasks: 8 });
  }

  static open(initialEvents: number, projections: readonly AnyProjection[] = readModelProjections): RebuildWorld {
    const temp = makeTempDir('operator-rebuild');
    const eventsFile = join(temp.dir, 'events.sqlite');
    const events = new SqliteEventStore({ filename: eventsFile, pollIntervalMs: 5 });
    const nextUuid = counterUuids();
    writeGeneratedLog(eventsFile, initialEvents, { nextUuid, concurrentTasks: 16 });
    return new RebuildWorld(projections, events, join(temp.dir, 'read-models.sqlite'), nextUuid, temp);
  }

  /** A connection of its own on the read-model file, as another process would have. */
  documents(): SqliteDocumentStore {
    const store = new SqliteDocumentStore({ filename: this.documentsFile });
    this.opened.push(store);
    return store;
  }

  /** A projector as apps/projector runs one: runner started, fed by tailing the store, sweeping. */
  async startProjector(documents: SqliteDocumentStore): Promise<{ runner: ProjectionRunner; stop(): Promise<void> }> {
    const runner = new ProjectionRunner({
      documents,
      events: this.events,
      projections: this.projections,
      logger: silentLogger,
      dropRetiredAfterMs: 50,
    });
    await runner.start();
    await runner.ready();
    const feed = this.events.subscribeToAll({ fromPosition: 'end' }, (event) => runner.apply([event]));
    runner.startSweeping(100);
    return {
      runner,
      async stop() {
        await feed.stop();
        await runner.stop();
      },
    };
  }

  /** Appends `count` more generated events, one append each. */
  async append(count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const next = this.later.next();
      if (next.done) throw new Error('the later log ran out');
      const { streamId, type, data } = next.value;
      await this.events.append(
        streamId,
        [
          {
            eventId: this.nextUuid(),
            type,
            data,
            metadata: { correlationId: 'later', causationId: null, workspaceId: 'later', actor: { kind: 'agent' } },
          },
        ],
        'any',
      );
    }
  }

  /** Every projection rebuilt from the whole log into a scratch store: what any correct collection holds. */
  async expected(): Promise<Record<string, Map<string, string>>> {
    const scratch = new SqliteDocumentStore({ filename: ':memory:' });
    try {
      await rebuildCollections(
        this.projections.map((definition) => ({ definition, physical: physicalCollection(definition) })),
        {
          documents: scratch,
          events: this.events,
          context: new TurnTaskLookup(this.events),
          logger: silentLogger,
          batchSize: 1_000,
        },
      );
      return await this.read(scratch, (p) => physicalCollection(p));
    } finally {
      await scratch.close();
    }
  }

  /** Every projection's documents where its alias points (or in `collectionOf`'s collection). */
  async read(
    documents: SqliteDocumentStore,
    collectionOf?: (p: AnyProjection) => string,
  ): Promise<Record<string, Map<string, string>>> {
    const aliases = new ProjectionAliases(documents, { cacheTtlMs: 0 });
    const out: Record<string, Map<string, string>> = {};
    for (const p of this.projections) {
      const collection = collectionOf?.(p) ?? (await aliases.collectionOf(p.name));
      if (collection === undefined) throw new Error(`${p.name} has no collection`);
      out[p.name] = await readCollection(documents, collection);
    }
    return out;
  }

  async close(): Promise<void> {
    for (const store of this.opened) await store.close();
    await this.events.close();
    this.temp.remove();
  }
}
