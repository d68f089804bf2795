import type { DocumentStore, Filter, Page, StoredDocument } from '../../document-store/document-store.port';
import type { ProjectionAliases } from '../engine/projection-aliases';
import type { ProjectionDocument } from '../engine/projection-definition';
import type { InboxItemDocument } from '../inbox/inbox-item.document';
import { inboxItemsProjection } from '../inbox/inbox-items.projection';
import type { MainLineDocument } from '../main-line/main-line.document';
import { mainLineProjection } from '../main-line/main-line.projection';
import type { TaskDocument, TaskKind, TaskStatus } from '../tasks/task.document';
import { tasksProjection } from '../tasks/tasks.projection';
import type { TurnDocument } from '../turns/turn.document';
import { turnsProjection } from '../turns/turns.projection';

export interface PageRequest {
  first: number;
  after?: string;
}

const emptyPage = <T extends ProjectionDocument>(): Page<T> => ({ items: [], endCursor: undefined, hasMore: false });

/**
 * Queries of the first slice, always through the alias (so a rebuild's switch is seen) and always
 * scoped by workspace: a document of another workspace reads as absent. Documents that exist only
 * because another stream's event came first (`created: false`) are not shown.
 */
export class ReadModels {
  constructor(
    private readonly documents: DocumentStore,
    private readonly aliases: ProjectionAliases,
  ) {}

  /** `tasks(status, kind, first, after)`: newest activity first; served by the tasks indexes. */
  listTasks(
    workspaceId: string,
    page: PageRequest & { status?: TaskStatus; kind?: TaskKind },
  ): Promise<Page<TaskDocument>> {
    const filter: Filter = {
      workspaceId,
      ...(page.status !== undefined ? { status: page.status } : {}),
      ...(page.kind !== undefined ? { kind: page.kind } : {}),
      created: true,
    };
    return this.find<TaskDocument>(tasksProjection.name, filter, [['lastActivityAt', -1]], page);
  }

  async getTask(workspaceId: string, taskId: string): Promise<StoredDocument<TaskDocument> | undefined> {
    const task = await this.get<TaskDocument>(tasksProjection.name, workspaceId, taskId);
    return task?.created ? task : undefined;
  }

  /**
   * Operators only (the API checks the token first): the tasks of every workspace in id order, for
   * a bounded scan that filters what no index serves (words of a goal). Id order, not activity:
   * no index sorts across workspaces by activity, and a scan must not need a new one.
   */
  scanTasksOfAllWorkspaces(page: PageRequest): Promise<Page<TaskDocument>> {
    return this.find<TaskDocument>(tasksProjection.name, { created: true }, [], page);
  }

  /** Operators only (the API checks the token first): a task whatever its workspace. */
  async getTaskOfAnyWorkspace(taskId: string): Promise<StoredDocument<TaskDocument> | undefined> {
    const collection = await this.aliases.collectionOf(tasksProjection.name);
    if (collection === undefined) return undefined;
    const task = await this.documents.get<TaskDocument>(collection, taskId);
    return task?.created ? task : undefined;
  }

  getTurn(workspaceId: string, turnId: string): Promise<StoredDocument<TurnDocument> | undefined> {
    return this.get<TurnDocument>(turnsProjection.name, workspaceId, turnId);
  }

  turnsOfTask(workspaceId: string, taskId: string, page: PageRequest): Promise<Page<TurnDocument>> {
    return this.find<TurnDocument>(turnsProjection.name, { workspaceId, taskId }, [['startedAt', -1]], page);
  }

  inboxOfTask(workspaceId: string, taskId: string, page: PageRequest): Promise<Page<InboxItemDocument>> {
    return this.find<InboxItemDocument>(
      inboxItemsProjection.name,
      { workspaceId, taskId, created: true },
      [['deliveredAt', 1]],
      page,
    );
  }

  /**
   * `mainline(first, after)` of one person: newest first (a task's checkpoint cards at the time
   * the latest opened, among the messages). Items holding nothing to show yet are left out.
   */
  mainLine(workspaceId: string, userId: string, page: PageRequest): Promise<Page<MainLineDocument>> {
    const filter: Filter = { workspaceId, userId, kind: { $in: ['message', 'card', 'checkpoints'] } };
    return this.find<MainLineDocument>(
      mainLineProjection.name,
      filter,
      [
        ['at', -1],
        ['seq', -1],
      ],
      page,
    );
  }

  /** `message(id)`. */
  getMessage(workspaceId: string, messageId: string): Promise<StoredDocument<MainLineDocument> | undefined> {
    return this.get<MainLineDocument>(mainLineProjection.name, workspaceId, messageId);
  }

  private async get<T extends ProjectionDocument>(name: string, workspaceId: string, id: string) {
    const collection = await this.aliases.collectionOf(name);
    if (collection === undefined) return undefined;
    const document = await this.documents.get<T>(collection, id);
    return document?.workspaceId === workspaceId ? document : undefined;
  }

  private async find<T extends ProjectionDocument>(
    name: string,
    filter: Filter,
    sort: ReadonlyArray<readonly [string, 1 | -1]>,
    page: PageRequest,
  ): Promise<Page<T>> {
    const collection = await this.aliases.collectionOf(name);
    if (collection === undefined) return emptyPage<T>();
    return this.documents.find<T>(collection, { filter, sort, limit: page.first, after: page.after });
  }
}
