import type { Page, StoredDocument, TaskDocument } from '@lomo/read-models';
import { searchTasks } from './operator-task-search';

type Task = StoredDocument<TaskDocument>;

const task = (id: string, workspaceId: string, goal: string, lastActivityAt: string): Task =>
  ({ _id: id, _version: 1, workspaceId, goal, summary: null, created: true, lastActivityAt }) as unknown as Task;

/** Pages of a list, the cursor being the index to continue from; counts what was read. */
function pages(all: Task[], first: number, after: string | undefined): Page<Task> {
  const start = after === undefined ? 0 : Number(after);
  const items = all.slice(start, start + first);
  return { items, hasMore: start + first < all.length, endCursor: String(start + items.length) };
}

function reader(tasks: Task[]) {
  const read = { scanned: 0 };
  const byId = [...tasks].sort((a, b) => a._id.localeCompare(b._id));
  return {
    read,
    scanTasksOfAllWorkspaces: async (page: { first: number; after?: string }) => {
      const p = pages(byId, page.first, page.after);
      read.scanned += p.items.length;
      return p;
    },
    listTasks: async (workspaceId: string, page: { first: number; after?: string }) => {
      const ofWorkspace = tasks
        .filter((t) => t.workspaceId === workspaceId)
        .sort((a, b) => (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? ''));
      const p = pages(ofWorkspace, page.first, page.after);
      read.scanned += p.items.length;
      return p;
    },
    getTaskOfAnyWorkspace: async (id: string) => tasks.find((t) => t._id === id),
  };
}

const tasks = [
  task('t1', 'ws_a', 'A poster series for the spring fair', '2026-01-01T00:00:03Z'),
  task('t2', 'ws_b', 'Poster for the bakery open day', '2026-01-01T00:00:05Z'),
  task('t3', 'ws_a', 'Storyboard of a lighthouse keeper', '2026-01-01T00:00:04Z'),
  task('t4', 'ws_b', 'A second POSTER, spring edition', '2026-01-01T00:00:01Z'),
];

describe('searchTasks (operatorTasks)', () => {
  it('finds the tasks of every workspace holding every word, any case, most recent activity first', async () => {
    const found = await searchTasks(reader(tasks), { search: 'poster SPRING', first: 10 });
    expect(found).toEqual({ tasks: [tasks[0], tasks[3]], complete: true });
    const all = await searchTasks(reader(tasks), { first: 10 });
    expect(all.tasks.map((t) => t._id)).toEqual(['t2', 't3', 't1', 't4']);
  });

  it('puts an exact id first and keeps to one workspace when asked', async () => {
    expect((await searchTasks(reader(tasks), { search: 't3', first: 10 })).tasks.map((t) => t._id)).toEqual(['t3']);
    expect((await searchTasks(reader(tasks), { search: 't3', workspaceId: 'ws_b', first: 10 })).tasks).toEqual([]);
    const inB = await searchTasks(reader(tasks), { search: 'poster', workspaceId: 'ws_b', first: 10 });
    expect(inB.tasks.map((t) => t._id)).toEqual(['t2', 't4']);
  });

  it('in one workspace stops at `first` matches (the index gives activity order): the answer is still complete', async () => {
    expect(await searchTasks(reader(tasks), { search: 'poster', workspaceId: 'ws_b', first: 1 })).toEqual({
      tasks: [tasks[1]],
      complete: true,
    });
    // Without words, no more is read than is shown.
    const source = reader(tasks);
    const latest = await searchTasks(source, { workspaceId: 'ws_a', first: 1 });
    expect(latest).toEqual({ tasks: [tasks[2]], complete: true });
    expect(source.read.scanned).toBe(1);
  });

  it('across workspaces stops at its scan bound and says the answer may be incomplete', async () => {
    const source = reader(tasks);
    const found = await searchTasks(source, { search: 'poster', first: 10 }, 2);
    expect(source.read.scanned).toBe(2);
    expect(found).toEqual({ tasks: [tasks[1], tasks[0]], complete: false });
  });
});
