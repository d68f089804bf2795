import {
  isCollectionOf,
  nextRebuildCollection,
  olderPhysicalCollections,
  parsePhysical,
  rebuildCollection,
  unusedCollectionsOfVersion,
} from './physical-names';

const tasks = { name: 'tasks', version: 3 };

describe('physical names: the first build of a version and an operator’s rebuilds of it', () => {
  it('names and recognises both forms, with their streams collections', () => {
    expect(rebuildCollection(tasks, 0)).toBe('tasks_v3');
    expect(rebuildCollection(tasks, 2)).toBe('tasks_v3_r2');
    expect(parsePhysical('tasks', 'tasks_v3')).toEqual({ version: 3, rebuild: 0, streams: false });
    expect(parsePhysical('tasks', 'tasks_v3_r2_streams')).toEqual({ version: 3, rebuild: 2, streams: true });
    // Another projection whose name starts alike, and names that only look similar.
    for (const other of ['tasks_extra_v3', 'tasks_v3_r', 'tasks_v3_x1', 'task_v3', 'tasks_v3_r2_other']) {
      expect(parsePhysical('tasks', other)).toBeUndefined();
    }
    expect(isCollectionOf(tasks, 'tasks_v3_r2')).toBe(true);
    expect(isCollectionOf(tasks, 'tasks_v3_r2_streams')).toBe(false);
    expect(isCollectionOf(tasks, 'tasks_v2_r9')).toBe(false);
  });

  it('numbers a new rebuild after every one of its version that exists, leftovers included', () => {
    expect(nextRebuildCollection(tasks, ['tasks_v3'])).toBe('tasks_v3_r1');
    expect(nextRebuildCollection(tasks, ['tasks_v3_r1', 'tasks_v3_r4_streams', 'tasks_v4_r9'])).toBe('tasks_v3_r5');
  });

  it('finds older versions in either form for retirement, and never the current version', () => {
    const collections = ['tasks_v1', 'tasks_v2_r3', 'tasks_v2_r3_streams', 'tasks_v3', 'tasks_v3_r1', 'turns_v1'];
    expect(olderPhysicalCollections('tasks', 3, collections)).toEqual([
      'tasks_v1',
      'tasks_v2_r3',
      'tasks_v2_r3_streams',
    ]);
  });

  it('finds the unused collections of the current version: not the alias’s, not a leased rebuild’s', () => {
    const collections = [
      'tasks_v3',
      'tasks_v3_streams',
      'tasks_v3_r1',
      'tasks_v3_r1_streams',
      'tasks_v3_r2',
      'tasks_v3_r2_streams',
      'tasks_v2',
      'tasks_v4',
    ];
    expect(unusedCollectionsOfVersion(tasks, ['tasks_v3_r1', 'tasks_v3_r2'], collections)).toEqual([
      'tasks_v3',
      'tasks_v3_streams',
    ]);
    expect(unusedCollectionsOfVersion(tasks, ['tasks_v3', null, undefined], collections)).toEqual([
      'tasks_v3_r1',
      'tasks_v3_r1_streams',
      'tasks_v3_r2',
      'tasks_v3_r2_streams',
    ]);
  });
});
