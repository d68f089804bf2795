import { SqliteDocumentStore } from '../../document-store/sqlite/sqlite-document-store';
import { ProjectionAliases } from './projection-aliases';

/** The compare-and-set switch of an operator's rebuild (replace-collections.ts). */
describe('projection aliases: replacing the live version’s collection', () => {
  let documents: SqliteDocumentStore;
  let now: Date;
  let aliases: ProjectionAliases;

  beforeEach(async () => {
    documents = new SqliteDocumentStore({ filename: ':memory:' });
    now = new Date('2026-12-06T10:00:00.000Z');
    aliases = new ProjectionAliases(documents, { now: () => now, cacheTtlMs: 0 });
    await aliases.switchTo('tasks', 5, 'tasks_v5');
  });

  afterEach(() => documents.close());

  it('switches only while the alias names the collection the rebuild started from and the lease is the owner’s', async () => {
    expect(await aliases.claimReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r1', 'op-a', 60_000)).toBe('claimed');
    // Another owner, while the lease runs: taken, and it cannot switch either.
    expect(await aliases.claimReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r2', 'op-b', 60_000)).toBe('taken');
    expect(await aliases.switchReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r2', 'op-b')).toBeUndefined();

    expect(await aliases.switchReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r1', 'op-a')).toEqual(['tasks_v5']);
    expect(await aliases.read('tasks')).toMatchObject({
      collection: 'tasks_v5_r1',
      version: 5,
      retired: ['tasks_v5'],
      rebuild: null,
      switchedAt: now.toISOString(),
    });
    // The alias moved on: a rebuild planned from the old collection can neither claim nor switch.
    expect(await aliases.claimReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r3', 'op-c', 60_000)).toBe('moved');
    expect(await aliases.switchReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r3', 'op-c')).toBeUndefined();
    expect((await aliases.read('tasks'))?.collection).toBe('tasks_v5_r1');
  });

  it('takes over a lease that ran out, and gives up only its own', async () => {
    await aliases.claimReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r1', 'op-a', 60_000);
    now = new Date(now.getTime() + 61_000);
    expect(await aliases.claimReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r2', 'op-b', 60_000)).toBe('claimed');
    await aliases.releaseRebuild('tasks', 'op-a');
    expect((await aliases.read('tasks'))?.rebuild).toMatchObject({ owner: 'op-b', collection: 'tasks_v5_r2' });
    await aliases.releaseRebuild('tasks', 'op-b');
    expect((await aliases.read('tasks'))?.rebuild).toBeNull();
  });

  it('leaves a newer version’s rebuild to the projector: a runner of version 6 takes the lease over', async () => {
    await aliases.claimReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r1', 'op-a', 60_000);
    expect(await aliases.claimRebuild('tasks', 6, 'tasks_v6', 'runner', 60_000)).toBe('claimed');
    expect(await aliases.switchReplacement('tasks', 5, 'tasks_v5', 'tasks_v5_r1', 'op-a')).toBeUndefined();
  });
});
