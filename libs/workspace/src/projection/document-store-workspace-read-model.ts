import type { ArtifactKind } from '@lomo/contracts';
import type { DocumentStore, Filter, StoredDocument } from '@lomo/read-models';
import type { ArtifactView, ArtifactVersionView, ChangeNoticeView, WorkspaceReadModel } from '../workspace-read.port';
import {
  WORKSPACE_ARTIFACTS,
  WORKSPACE_ARTIFACT_VERSIONS,
  WORKSPACE_NOTICES,
  WORKSPACE_TASK_ARTIFACTS,
} from './workspace.projection';
import type {
  ArtifactDocument,
  ArtifactVersionDocument,
  NoticeDocument,
  TaskArtifactDocument,
} from './workspace-documents';

/** Resolves a projection's physical collection through its alias (undefined before the first build). */
export type CollectionOf = (projection: string) => Promise<string | undefined>;

const PAGE = 500;
const MAX_FIRST = 200;

/**
 * The workspace read model over the projector's documents, always scoped by workspace: an
 * artefact of another workspace reads as absent, exactly like one that does not exist.
 */
export class DocumentStoreWorkspaceReadModel implements WorkspaceReadModel {
  constructor(
    private readonly documents: DocumentStore,
    private readonly collectionOf: CollectionOf,
  ) {}

  async artifact(workspaceId: string, artifactId: string): Promise<ArtifactView | undefined> {
    const doc = await this.artifactDocument(workspaceId, artifactId);
    if (doc === undefined) return undefined;
    return toView(doc, await this.versions(workspaceId, artifactId));
  }

  /** The stored document, deleted ones included (bindings and notices need them). */
  async artifactDocument(workspaceId: string, artifactId: string): Promise<ArtifactDocument | undefined> {
    const collection = await this.collectionOf(WORKSPACE_ARTIFACTS);
    if (collection === undefined) return undefined;
    const doc = await this.documents.get<ArtifactDocument>(collection, artifactId);
    return doc?.created && doc.workspaceId === workspaceId ? doc : undefined;
  }

  async artifacts(
    workspaceId: string,
    filter: { kind?: ArtifactKind; taskId?: string; text?: string; includeDeleted?: boolean },
    page: { first: number; after?: string },
  ): Promise<{ items: ArtifactView[]; endCursor?: string; hasNextPage: boolean }> {
    const first = Math.max(0, Math.min(MAX_FIRST, page.first));
    const docs =
      filter.taskId !== undefined
        ? await this.ofTask(workspaceId, filter.taskId, filter, first, page.after)
        : await this.listed(workspaceId, filter, first, page.after);
    const items = await Promise.all(
      docs.items.map(async (d) => toView(d, await this.versions(workspaceId, d.artifactId))),
    );
    return { items, endCursor: docs.endCursor, hasNextPage: docs.hasMore };
  }

  async openNotices(workspaceId: string, taskId: string): Promise<ChangeNoticeView[]> {
    const collection = await this.collectionOf(WORKSPACE_NOTICES);
    if (collection === undefined) return [];
    const out: ChangeNoticeView[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.documents.find<NoticeDocument>(collection, {
        filter: { workspaceId, taskId, open: true },
        sort: [['noticedAt', 1]],
        limit: PAGE,
        after,
      });
      for (const n of page.items) out.push(toNoticeView(n));
      if (!page.hasMore) return out;
      after = page.endCursor;
    }
  }

  /** Every version of an artefact after `afterVersion`, oldest first. */
  async versions(workspaceId: string, artifactId: string, afterVersion = 0): Promise<ArtifactVersionView[]> {
    return (await this.versionDocuments(workspaceId, artifactId, afterVersion)).map(toVersionView);
  }

  /** The stored versions (with the full author, generation task included), oldest first. */
  async versionDocuments(
    workspaceId: string,
    artifactId: string,
    afterVersion = 0,
  ): Promise<ArtifactVersionDocument[]> {
    const collection = await this.collectionOf(WORKSPACE_ARTIFACT_VERSIONS);
    if (collection === undefined) return [];
    const out: ArtifactVersionDocument[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.documents.find<ArtifactVersionDocument>(collection, {
        filter: { workspaceId, artifactId, version: { $gt: afterVersion } },
        sort: [['version', 1]],
        limit: PAGE,
        after,
      });
      for (const v of page.items) if (v.change !== null) out.push(v);
      if (!page.hasMore) return out;
      after = page.endCursor;
    }
  }

  /** The (task, artefact) documents of the tasks that read or wrote the artefact. */
  async readersOf(workspaceId: string, artifactId: string): Promise<TaskArtifactDocument[]> {
    const collection = await this.collectionOf(WORKSPACE_TASK_ARTIFACTS);
    if (collection === undefined) return [];
    const out: TaskArtifactDocument[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.documents.find<TaskArtifactDocument>(collection, {
        filter: { workspaceId, artifactId, lastSeenVersion: { $gte: 1 } },
        sort: [['lastSeenVersion', 1]],
        limit: PAGE,
        after,
      });
      out.push(...page.items);
      if (!page.hasMore) return out;
      after = page.endCursor;
    }
  }

  /**
   * The cursor after item `i` of a page: the store hands out a cursor per page, so a filtered scan
   * that stops inside one re-reads the page up to that item to get an exact cursor (nothing after
   * it is skipped or repeated).
   */
  private async cursorAfter(
    collection: string,
    scan: { filter: Filter; sort: readonly (readonly [string, 1 | -1])[] },
    before: string | undefined,
    page: { items: readonly unknown[]; endCursor: string | undefined },
    i: number,
  ): Promise<string | undefined> {
    if (i === page.items.length - 1) return page.endCursor;
    const exact = await this.documents.find(collection, { ...scan, limit: i + 1, after: before });
    return exact.endCursor;
  }

  private async listed(
    workspaceId: string,
    filter: { kind?: ArtifactKind; text?: string; includeDeleted?: boolean },
    first: number,
    after: string | undefined,
  ) {
    const collection = await this.collectionOf(WORKSPACE_ARTIFACTS);
    if (collection === undefined) return { items: [], endCursor: undefined, hasMore: false };
    const query: Filter = {
      workspaceId,
      ...(filter.includeDeleted === true ? { created: true } : { listed: true }),
      ...(filter.kind !== undefined ? { kind: filter.kind } : {}),
    };
    if (filter.text === undefined || filter.text.trim() === '') {
      return this.documents.find<ArtifactDocument>(collection, {
        filter: query,
        sort: [['updatedAt', -1]],
        limit: first,
        after,
      });
    }
    // The text filter is a substring of the title: pages of the listed documents are scanned until
    // `first` match (the store has no substring operator that works the same on SQLite and MongoDB).
    const needle = filter.text.trim().toLowerCase();
    const items: StoredDocument<ArtifactDocument>[] = [];
    let cursor = after;
    for (;;) {
      const scan = { filter: query, sort: [['updatedAt', -1]] as const };
      const page = await this.documents.find<ArtifactDocument>(collection, { ...scan, limit: PAGE, after: cursor });
      for (const [i, d] of page.items.entries()) {
        if (!d.searchText.includes(needle)) continue;
        items.push(d);
        if (items.length === first) {
          const more = i < page.items.length - 1 || page.hasMore;
          const endCursor = more ? await this.cursorAfter(collection, scan, cursor, page, i) : undefined;
          return { items, endCursor, hasMore: more };
        }
      }
      if (!page.hasMore) return { items, endCursor: undefined, hasMore: false };
      cursor = page.endCursor;
    }
  }

  /** References by task, oldest first; deleted artefacts only when asked for (they show "deleted"). */
  private async ofTask(
    workspaceId: string,
    taskId: string,
    filter: { kind?: ArtifactKind; text?: string; includeDeleted?: boolean },
    first: number,
    after: string | undefined,
  ) {
    const refs = await this.collectionOf(WORKSPACE_TASK_ARTIFACTS);
    const artifacts = await this.collectionOf(WORKSPACE_ARTIFACTS);
    if (refs === undefined || artifacts === undefined) return { items: [], endCursor: undefined, hasMore: false };
    const needle = filter.text?.trim().toLowerCase() ?? '';
    const items: ArtifactDocument[] = [];
    let cursor = after;
    for (;;) {
      const scan = { filter: { workspaceId, taskId, referenced: true }, sort: [['referencedAt', 1]] as const };
      const page = await this.documents.find<TaskArtifactDocument>(refs, {
        ...scan,
        limit: Math.max(first, 1),
        after: cursor,
      });
      const found = await this.documents.getMany<ArtifactDocument>(
        artifacts,
        page.items.map((r) => r.artifactId),
      );
      const byId = new Map(found.map((d) => [d.artifactId, d]));
      for (const [i, ref] of page.items.entries()) {
        const d = byId.get(ref.artifactId);
        if (d === undefined || !d.created || d.workspaceId !== workspaceId) continue;
        if (d.deleted && filter.includeDeleted !== true) continue;
        if (filter.kind !== undefined && d.kind !== filter.kind) continue;
        if (needle !== '' && !d.searchText.includes(needle)) continue;
        items.push(d);
        if (items.length === first) {
          const more = i < page.items.length - 1 || page.hasMore;
          const endCursor = more ? await this.cursorAfter(refs, scan, cursor, page, i) : undefined;
          return { items, endCursor, hasMore: more };
        }
      }
      if (!page.hasMore || first === 0) return { items, endCursor: undefined, hasMore: false };
      cursor = page.endCursor;
    }
  }
}

function toVersionView(v: ArtifactVersionDocument): ArtifactVersionView {
  return {
    version: v.version,
    at: v.at ?? '',
    by: v.by === null ? { kind: 'person', userId: 'unknown' } : authorView(v.by),
    change: v.change ?? 'replaced',
    ...(v.contentHash !== null ? { contentHash: v.contentHash } : {}),
    ...(v.contentType !== null ? { contentType: v.contentType } : {}),
    ...(v.bytes !== null ? { bytes: v.bytes } : {}),
    ...(v.summary !== null ? { summary: v.summary } : {}),
    ...(v.nodes.length > 0 ? { nodes: [...v.nodes] } : {}),
  };
}

function authorView(by: NonNullable<ArtifactVersionDocument['by']>): ArtifactVersionView['by'] {
  switch (by.kind) {
    case 'person':
      return { kind: 'person', userId: by.userId };
    case 'agent':
      return { kind: 'agent', taskId: by.taskId, callId: by.callId };
    case 'generation':
      return { kind: 'generation', jobId: by.jobId };
  }
}

export function toView(d: ArtifactDocument, versions: ArtifactVersionView[]): ArtifactView {
  return {
    artifactId: d.artifactId,
    workspaceId: d.workspaceId,
    kind: d.kind ?? 'document',
    title: d.title,
    version: d.version,
    createdAt: d.createdAt ?? '',
    updatedAt: d.updatedAt ?? '',
    deleted: d.deleted,
    ...(d.deletionRequested !== null ? { deletionRequested: { ...d.deletionRequested } } : {}),
    taskIds: [...d.taskIds],
    versions,
    ...(d.flow !== null
      ? {
          flow: {
            structureVersion: d.flow.structureVersion,
            nodes: d.flow.nodes.map((n) => ({ ...n })),
            edgeCount: d.flow.edgeCount,
          },
        }
      : {}),
    ...(d.members !== null ? { members: [...d.members] } : {}),
  };
}

function toNoticeView(n: NoticeDocument): ChangeNoticeView {
  return {
    noticeId: n.noticeId,
    taskId: n.taskId,
    artifactId: n.artifactId,
    fromVersion: n.fromVersion,
    toVersion: n.toVersion,
    nodes: [...n.nodes],
    summary: n.summary,
    noticedAt: n.noticedAt ?? '',
  };
}
