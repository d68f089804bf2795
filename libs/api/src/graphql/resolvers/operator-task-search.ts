import type { StoredDocument, TaskDocument } from '@lomo/read-models';
import type { ApiReadModels } from '../../api-di-tokens';

/** Tasks one search looks at, at most: an operator's search is a scan (no index serves goal words). */
export const TASK_SEARCH_SCAN_BOUND = 2_000;
const SCAN_PAGE = 500;

export interface TaskSearch {
  /** Words that must all appear in the task's id, workspace, goal or summary (any case). */
  search?: string;
  workspaceId?: string;
  first: number;
}

export interface TaskSearchResult {
  tasks: Array<StoredDocument<TaskDocument>>;
  /** False when the scan stopped at its bound with tasks left unseen. */
  complete: boolean;
}

type Reader = Pick<ApiReadModels, 'listTasks' | 'scanTasksOfAllWorkspaces' | 'getTaskOfAnyWorkspace'>;

const wordsOf = (search: string | undefined): string[] =>
  (search ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);

const haystack = (t: TaskDocument): string =>
  [t._id, t.workspaceId, t.goal ?? '', t.summary ?? ''].join('\n').toLowerCase();

const byActivity = (a: TaskDocument, b: TaskDocument): number =>
  (b.lastActivityAt ?? '').localeCompare(a.lastActivityAt ?? '') || a._id.localeCompare(b._id);

/**
 * The operators' task search, across workspaces: an exact id first, then the tasks whose text
 * holds every word, most recent activity first. In one workspace the tasks index gives activity
 * order, so the scan stops at `first` matches; across workspaces it goes in id order and sorts
 * what matched, up to `scanBound` tasks (the result says when it stopped short).
 */
export async function searchTasks(
  readModels: Reader,
  request: TaskSearch,
  scanBound = TASK_SEARCH_SCAN_BOUND,
): Promise<TaskSearchResult> {
  const words = wordsOf(request.search);
  const found = new Map<string, StoredDocument<TaskDocument>>();
  if (words.length === 1) {
    const exact = await readModels.getTaskOfAnyWorkspace(request.search!.trim());
    if (exact !== undefined && (request.workspaceId === undefined || exact.workspaceId === request.workspaceId))
      found.set(exact._id, exact);
  }
  const inActivityOrder = request.workspaceId !== undefined;
  let after: string | undefined;
  let scanned = 0;
  let more = true;
  while (more && scanned < scanBound && !(inActivityOrder && found.size >= request.first)) {
    // Without words every task matches: in activity order, read no more than is wanted.
    const wanted = inActivityOrder && words.length === 0 ? request.first - found.size : SCAN_PAGE;
    const page = { first: Math.min(SCAN_PAGE, scanBound - scanned, wanted), ...(after !== undefined ? { after } : {}) };
    const read = inActivityOrder
      ? await readModels.listTasks(request.workspaceId!, page)
      : await readModels.scanTasksOfAllWorkspaces(page);
    for (const task of read.items) {
      scanned += 1;
      const text = haystack(task);
      if (words.every((w) => text.includes(w))) found.set(task._id, task);
      if (inActivityOrder && found.size >= request.first) break;
    }
    more = read.hasMore;
    after = read.endCursor;
  }
  const enough = inActivityOrder && found.size >= request.first;
  return { tasks: [...found.values()].sort(byActivity).slice(0, request.first), complete: enough || !more };
}
