import { streams } from '@lomo/contracts';
import { waitUntil } from '@lomo/eventstore/testing';
import { silentLogger } from '@lomo/observability';
import { ProjectionAliases, tasksProjection, turnsProjection, type SqliteDocumentStore } from '@lomo/read-models';
import { diffCollections } from '@lomo/read-models/testing';
import { operatorCaller, RebuildWorld } from '@lomo/operator/testing';
import { ConfirmationRequiredError, OperatorRoleRequiredError, UnknownTargetError } from '../../errors';
import { projectionsStatus } from './projections-status';
import { rebuildProjections, type RebuildProgressReport } from './rebuild-projections';
import { ProjectionRebuildRefusedError } from './rebuild-refused';

const INITIAL_EVENTS = 4_000;

const rebuildOptions = (world: RebuildWorld, extra: Partial<Parameters<typeof rebuildProjections>[2]> = {}) => ({
  confirm: true,
  clock: world.clock,
  ids: world.ids,
  logger: silentLogger,
  retireAfterMs: 100,
  batchSize: 500,
  ...extra,
});

const sources = (world: RebuildWorld, documents: SqliteDocumentStore) => ({
  events: world.events,
  documents,
  projections: world.projections,
});

/** Each projection's documents equal to a clean rebuild of the whole log (or the first difference). */
async function differences(world: RebuildWorld, documents: SqliteDocumentStore) {
  const [expected, actual] = [await world.expected(), await world.read(documents)];
  return Object.fromEntries(
    world.projections.map((p) => [p.name, diffCollections(expected[p.name], actual[p.name]).counts]),
  );
}
const allEqual = (diffs: Record<string, { missing: number; extra: number; different: number }>) =>
  Object.values(diffs).every((d) => d.missing + d.extra + d.different === 0);

describe('projections rebuild: fresh collections, a compare-and-set switch, live projectors following it', () => {
  // Real SQLite files, a projector tailing the store and waits for it: seconds on a loaded machine.
  jest.setTimeout(30_000);
  let world: RebuildWorld;

  beforeEach(() => {
    world = RebuildWorld.open(INITIAL_EVENTS);
  });

  afterEach(() => world.close());

  it('rebuilds into fresh collections whose documents equal the live ones, then retires the old ones', async () => {
    const projector = await world.startProjector(world.documents());
    await projector.stop();
    const cli = world.documents();
    const live = await world.read(cli);
    const progress: RebuildProgressReport[] = [];

    const summary = await rebuildProjections(
      sources(world, cli),
      operatorCaller,
      rebuildOptions(world, { onProgress: (p) => progress.push(p) }),
    );

    expect(summary.collections).toEqual(
      world.projections.map((p) => ({
        name: p.name,
        from: `${p.name}_v${p.version}`,
        collection: `${p.name}_v${p.version}_r1`,
      })),
    );
    for (const p of world.projections) {
      expect(await new ProjectionAliases(cli).collectionOf(p.name)).toBe(`${p.name}_v${p.version}_r1`);
      expect(diffCollections(live[p.name], (await world.read(cli))[p.name])).toMatchObject({ equal: true });
    }
    // The replaced collections and their applied streams are gone.
    const collections = await cli.listCollections();
    for (const p of world.projections) {
      expect(collections).not.toContain(`${p.name}_v${p.version}`);
      expect(collections).not.toContain(`${p.name}_v${p.version}_streams`);
      expect(collections).toContain(`${p.name}_v${p.version}_r1_streams`);
    }
    expect(summary.events).toBe(INITIAL_EVENTS);
    expect(summary.retired).toEqual(world.projections.map((p) => `${p.name}_v${p.version}`));
    // Progress after each batch of 500, up to the head: positions are counts on SQLite.
    expect(progress.length).toBeGreaterThanOrEqual(INITIAL_EVENTS / 500);
    expect(progress.at(-1)).toMatchObject({ events: INITIAL_EVENTS, position: INITIAL_EVENTS, total: INITIAL_EVENTS });

    // A second rebuild takes the next number and retires the first one's collections.
    const again = await rebuildProjections(
      sources(world, cli),
      operatorCaller,
      rebuildOptions(world, { names: ['tasks'] }),
    );
    const tasks = `tasks_v${tasksProjection.version}`;
    expect(again.collections).toEqual([{ name: 'tasks', from: `${tasks}_r1`, collection: `${tasks}_r2` }]);
    expect(await cli.listCollections()).not.toContain(`${tasks}_r1`);
  });

  it('a live projector follows the switch: it writes the new collection, and no event is lost or applied twice', async () => {
    const projector = await world.startProjector(world.documents());
    const cli = world.documents();
    const appends: Array<Promise<void>> = [];

    const summary = await rebuildProjections(
      sources(world, cli),
      operatorCaller,
      // Events appended while the rebuild reads the log: the projector applies them to the old
      // collections, the rebuild's catch-up or the projector's adoption to the new ones.
      rebuildOptions(world, { onProgress: () => appends.push(world.append(20)) }),
    );
    await Promise.all(appends);
    await world.append(150);

    const rebuilt = summary.collections.map((c) => c.collection);
    await waitUntil(
      async () => projector.runner.status().every((s) => rebuilt.includes(s.collection)),
      'the projector to write the rebuilt collections',
    );
    await waitUntil(
      async () => allEqual(await differences(world, cli)),
      'the rebuilt collections to hold every event',
      15_000,
    );
    expect(projector.runner.status().map((s) => [s.name, s.state, s.collection])).toEqual(
      world.projections.map((p) => [p.name, 'live', `${p.name}_v${p.version}_r1`]),
    );
    // Readers in the projector's process resolve the new collection too.
    for (const p of world.projections) {
      await waitUntil(
        async () => (await projector.runner.aliases.collectionOf(p.name)) === `${p.name}_v${p.version}_r1`,
        `${p.name}'s alias cache`,
      );
    }

    // And events appended later still arrive there, through the feed.
    await world.append(40);
    await waitUntil(async () => allEqual(await differences(world, cli)), 'the later events', 15_000);
    await projector.stop();
    // The collections the projector left were retired: nothing recreated them.
    const collections = await cli.listCollections();
    for (const p of world.projections) expect(collections).not.toContain(`${p.name}_v${p.version}`);
  });

  it('a projector started after the rebuild goes live on the rebuilt collections without rebuilding', async () => {
    const first = await world.startProjector(world.documents());
    await first.stop();
    const cli = world.documents();
    await rebuildProjections(sources(world, cli), operatorCaller, rebuildOptions(world));
    await world.append(30);
    // Left behind by rebuilds that crashed: one abandoned, one still under its lease.
    const [tasks, turns] = [`tasks_v${tasksProjection.version}`, `turns_v${turnsProjection.version}`];
    await cli.upsert(`${tasks}_r9`, { _id: 'half-built' });
    await cli.upsert(`${turns}_r7`, { _id: 'being-built' });
    await new ProjectionAliases(cli).claimReplacement(
      'turns',
      turnsProjection.version,
      `${turns}_r1`,
      `${turns}_r7`,
      'another-operator',
      60_000,
    );

    const later = await world.startProjector(world.documents());
    const status = later.runner.status();
    await later.stop();

    expect(status.map((s) => [s.name, s.state, s.collection, s.rebuiltEvents])).toEqual(
      world.projections.map((p) => [p.name, 'live', `${p.name}_v${p.version}_r1`, 0]),
    );
    const collections = await cli.listCollections();
    expect(collections).not.toContain(`${tasks}_r9`);
    expect(collections).toContain(`${turns}_r7`);
    // Its start-up sweep applied what was appended since.
    expect(allEqual(await differences(world, cli))).toBe(true);
  });

  it('refuses without --confirm, for a non-operator, for an unknown name, and while another rebuild holds the lease', async () => {
    const projector = await world.startProjector(world.documents());
    await projector.stop();
    const cli = world.documents();
    const before = await cli.listCollections();
    const run = (options: Partial<Parameters<typeof rebuildProjections>[2]>, caller = operatorCaller) =>
      rebuildProjections(sources(world, cli), caller, rebuildOptions(world, options));

    await expect(run({ confirm: false })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    await expect(run({}, { ...operatorCaller, kind: 'person' })).rejects.toBeInstanceOf(OperatorRoleRequiredError);
    await expect(run({ names: ['tasks', 'nope'] })).rejects.toBeInstanceOf(UnknownTargetError);
    // Only the version readers use: another version is the projector's to build when it starts.
    const tasksV6 = { ...tasksProjection, version: tasksProjection.version + 1 } as (typeof world.projections)[number];
    await expect(
      rebuildProjections({ ...sources(world, cli), projections: [tasksV6] }, operatorCaller, rebuildOptions(world)),
    ).rejects.toMatchObject({ code: 'REBUILD_REFUSED', reason: expect.stringContaining('the projector of version') });
    const aliases = new ProjectionAliases(cli);
    const tasks = `tasks_v${tasksProjection.version}`;
    await aliases.claimReplacement('tasks', tasksProjection.version, tasks, `${tasks}_r7`, 'another-operator', 60_000);
    await expect(run({ names: ['turns', 'tasks'] })).rejects.toBeInstanceOf(ProjectionRebuildRefusedError);

    // Nothing changed: no collection, no switch, nothing recorded; turns' claim was given up.
    expect(await cli.listCollections()).toEqual(before);
    expect((await aliases.read('turns'))?.rebuild).toBeNull();
    expect(await world.events.readStream(streams.operator('ops'))).toEqual([]);
  });

  it('records the rebuild on the operator’s stream and shows it in the status', async () => {
    const projector = await world.startProjector(world.documents());
    await projector.stop();
    const cli = world.documents();
    const summary = await rebuildProjections(
      sources(world, cli),
      operatorCaller,
      rebuildOptions(world, { names: ['turns'] }),
    );

    const turnsV = `turns_v${turnsProjection.version}`;
    const [recorded] = await world.events.readStream(streams.operator('ops'));
    expect(recorded.data).toMatchObject({
      action: 'projections_rebuilt',
      operator: { userId: 'alice', tokenId: 'tok-operator' },
      outcome: 'completed',
      details: { names: ['turns'], events: summary.events, millis: summary.millis, collections: [`${turnsV}_r1`] },
    });

    const rows = await projectionsStatus(sources(world, cli));
    const turns = rows.find((r) => r.name === 'turns');
    // The rebuild's checkpoint is the last turn event it read; the head is the operator's record.
    const lastTurnEvent = (await world.events.readAll({ filter: { streamPrefixes: ['turn-'] } })).at(-1);
    const applied = Number(lastTurnEvent?.metadata.globalPosition);
    expect(turns).toMatchObject({
      version: turnsProjection.version,
      aliasVersion: turnsProjection.version,
      aliasCollection: `${turnsV}_r1`,
      rebuildLease: null,
      documents: (await world.read(cli)).turns.size,
      appliedPosition: String(applied),
      headPosition: String(INITIAL_EVENTS + 1),
      lagEvents: INITIAL_EVENTS + 1 - applied,
    });
    expect(rows.find((r) => r.name === 'tasks')).toMatchObject({
      aliasCollection: `tasks_v${tasksProjection.version}`,
    });
  });
});
