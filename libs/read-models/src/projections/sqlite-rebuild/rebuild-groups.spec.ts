import { readModelProjections } from '../read-model-projections';
import { planRebuildGroups } from './rebuild-groups';

const names = (groups: ReadonlyArray<ReadonlyArray<{ name: string }>>) => groups.map((g) => g.map((p) => p.name));
const categories = (p: { categories: readonly string[] }) => p.categories;

describe('planRebuildGroups', () => {
  it('keeps projections reading the same categories together and balances the rest', () => {
    expect(names(planRebuildGroups(readModelProjections, 2, categories))).toEqual([
      ['tasks', 'inbox_items'],
      ['main_line', 'turns'],
    ]);
  });

  it('gives one group per cluster at most, and everything to one group when asked for one', () => {
    expect(names(planRebuildGroups(readModelProjections, 8, categories))).toEqual([
      ['tasks', 'inbox_items'],
      ['main_line'],
      ['turns'],
    ]);
    expect(names(planRebuildGroups(readModelProjections, 1, categories))).toEqual([
      ['tasks', 'inbox_items', 'main_line', 'turns'],
    ]);
    expect(names(planRebuildGroups(readModelProjections, 0, categories))).toHaveLength(1);
    expect(planRebuildGroups([], 2, categories)).toEqual([]);
  });

  it('treats category sets as sets (order and repeats do not matter)', () => {
    const projections = [
      { name: 'a', categories: ['task', 'turn'] },
      { name: 'b', categories: ['turn', 'task', 'turn'] },
      { name: 'c', categories: ['main'] },
    ];
    expect(names(planRebuildGroups(projections, 2, categories))).toEqual([['a', 'b'], ['c']]);
  });
});
