import { Command } from 'commander';
import { projectorProjections } from '@lomo/application';
import { systemClock } from '@lomo/contracts';
import { silentLogger } from '@lomo/observability';
import { ConfirmationRequiredError } from '@lomo/operator';
import { operatorCaller, RebuildWorld } from '@lomo/operator/testing';
import type { CliContext } from '../cli-context';
import { createOutput } from '../cli-output';
import { registerProjectionsCommand } from './projections-command';

/** The command on a generated log, with a context whose output and progress the spec reads. */
function harness(world: RebuildWorld, json: boolean) {
  const out: string[] = [];
  const bars: Array<{ label: string; total?: number; updates: number[]; stopped: boolean }> = [];
  const documents = world.documents();
  const ctx = {
    openStores: async () => ({ events: world.events, documents }),
    caller: async () => operatorCaller,
    clock: systemClock,
    ids: world.ids,
    out: createOutput(json, { out: (l) => out.push(l), err: () => undefined }),
    progress: (label: string, total?: number) => {
      const bar = { label, total, updates: [] as number[], stopped: false };
      bars.push(bar);
      return { update: (done: number) => bar.updates.push(done), stop: () => (bar.stopped = true) };
    },
    logger: silentLogger,
    audit: silentLogger,
    signal: new AbortController().signal,
  } as unknown as CliContext;
  const run = async (...args: string[]) => {
    const program = new Command('lomo').exitOverride();
    registerProjectionsCommand(program, ctx, { retireAfterMs: 0 });
    await program.parseAsync(args, { from: 'user' });
  };
  return { run, out, bars, documents };
}

describe('lomo projections', () => {
  let world: RebuildWorld;

  beforeEach(async () => {
    world = RebuildWorld.open(3_000, projectorProjections);
    const projector = await world.startProjector(world.documents());
    await projector.stop();
  });

  afterEach(() => world.close());

  it('status shows every projection the projector runs: collection, applied position, lag, documents', async () => {
    const cli = harness(world, true);
    await cli.run('projections', 'status');
    const rows = cli.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.name)).toEqual(projectorProjections.map((p) => p.name));
    expect(rows.find((r) => r.name === 'tasks')).toMatchObject({
      aliasCollection: expect.stringMatching(/^tasks_v[0-9]+$/),
      headPosition: '3000',
      rebuildLease: null,
      documents: expect.any(Number),
    });
  });

  it('rebuild needs --confirm, then rebuilds with a progress bar up to the head and returns the switched collections', async () => {
    const refused = harness(world, false);
    await expect(refused.run('projections', 'rebuild', '--name', 'tasks')).rejects.toBeInstanceOf(
      ConfirmationRequiredError,
    );
    expect(refused.bars).toEqual([]);

    const cli = harness(world, true);
    await cli.run('projections', 'rebuild', '--name', 'tasks', '--name', 'turns', '--confirm');
    const summary = JSON.parse(cli.out.at(-1) as string) as {
      names: string[];
      collections: Array<{ collection: string }>;
    };
    expect(summary.names).toEqual(['tasks', 'turns']);
    expect(summary.collections.map((c) => c.collection)).toEqual([
      expect.stringMatching(/^tasks_v[0-9]+_r1$/),
      expect.stringMatching(/^turns_v[0-9]+_r1$/),
    ]);
    // One bar to the head position (the event count on SQLite), stopped at the switch.
    expect(cli.bars).toHaveLength(1);
    expect(cli.bars[0]).toMatchObject({ label: 'rebuild', total: 3_000, stopped: true });
    expect(cli.bars[0].updates.at(-1)).toBeLessThanOrEqual(3_000);
    expect(cli.bars[0].updates.length).toBeGreaterThan(0);
  });
});
