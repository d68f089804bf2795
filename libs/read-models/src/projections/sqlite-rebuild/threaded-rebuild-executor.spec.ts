import { silentLogger } from '@lomo/observability';
import type { DocumentStore } from '../../document-store/document-store.port';
import type { EngineContext } from '../engine/projection-engine';
import type { RebuildEnvironment } from '../engine/rebuild-executor.port';
import { readModelProjections } from '../read-model-projections';
import { ThreadedRebuildExecutor } from './threaded-rebuild-executor';

const targets = readModelProjections.map((definition) => ({ definition, physical: `${definition.name}_v1` }));

function environment(head: string | undefined): RebuildEnvironment {
  return {
    documents: {} as DocumentStore,
    events: {
      readAll: async () => [],
      readStream: async () => [],
      headPosition: async () => head,
    },
    context: {} as EngineContext,
    logger: silentLogger,
    batchSize: 100,
  };
}

const threads = (minEvents?: number) =>
  new ThreadedRebuildExecutor({
    threads: 2,
    events: { filename: 'events.sqlite' },
    documents: { filename: 'read-models.sqlite' },
    minEvents,
  });

const namesOf = (groups: Array<{ targets: ReadonlyArray<{ definition: { name: string } }> }>) =>
  groups.map((g) => g.targets.map((t) => t.definition.name));

describe('ThreadedRebuildExecutor.plan: threads only when the log is worth them', () => {
  it('below minEvents every target goes to one group on the calling thread', async () => {
    const groups = await threads().plan(targets, environment('49999'));
    expect(namesOf(groups)).toEqual([readModelProjections.map((p) => p.name)]);
  });

  it('from minEvents on, one group per thread by shared categories, handing back the very same targets', async () => {
    const groups = await threads().plan(targets, environment('50000'));
    expect(namesOf(groups)).toEqual([
      ['tasks', 'inbox_items'],
      ['main_line', 'turns'],
    ]);
    expect(groups.flatMap((g) => g.targets).every((t) => targets.includes(t))).toBe(true);
  });

  it('a projection a thread cannot load gets a group of its own on the calling thread, last', async () => {
    const tasks = targets.find((t) => t.definition.name === 'tasks')!;
    const stranger = { ...tasks, definition: { ...tasks.definition, version: 9 } };
    const groups = await threads(0).plan([...targets.filter((t) => t !== tasks), stranger], environment(undefined));
    expect(namesOf(groups).at(-1)).toEqual(['tasks']);
    expect(groups.at(-1)?.targets).toEqual([stranger]);
  });
});
