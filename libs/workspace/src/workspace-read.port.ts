import type { ArtifactKind } from '@lomo/contracts';

/**
 * The workspace read model (a projection, rebuildable like the others): artefacts by workspace,
 * kind and task; versions; flow node versions; open change notices per task.
 */
export const WORKSPACE_READ_MODEL = Symbol('WORKSPACE_READ_MODEL');

export interface ArtifactVersionView {
  version: number;
  at: string;
  by:
    | { kind: 'person'; userId: string }
    | { kind: 'agent'; taskId: string; callId: string }
    | { kind: 'generation'; jobId: string };
  change: 'created' | 'replaced' | 'snippets_edited' | 'restored' | 'flow_nodes' | 'flow_structure';
  /** Media: the blob of this version; documents: the text hash. */
  contentHash?: string;
  contentType?: string;
  bytes?: number;
  summary?: string;
  /** Flows: the nodes this version changed (params, or added / removed). */
  nodes?: string[];
}

export interface ArtifactView {
  artifactId: string;
  workspaceId: string;
  kind: ArtifactKind;
  title: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
  deletionRequested?: { requestId: string; by: string };
  /** Tasks that reference it (the creating task first). */
  taskIds: string[];
  versions: ArtifactVersionView[];
  /** Flows only. */
  flow?: {
    structureVersion: number;
    nodes: Array<{ nodeId: string; kind: string; version: number }>;
    edgeCount: number;
  };
  /** Asset sets only. */
  members?: string[];
}

export interface ChangeNoticeView {
  noticeId: string;
  taskId: string;
  artifactId: string;
  fromVersion: number;
  toVersion: number;
  nodes: string[];
  summary: string;
  noticedAt: string;
}

export interface WorkspaceReadModel {
  artifact(workspaceId: string, artifactId: string): Promise<ArtifactView | undefined>;
  artifacts(
    workspaceId: string,
    filter: { kind?: ArtifactKind; taskId?: string; text?: string; includeDeleted?: boolean },
    page: { first: number; after?: string },
  ): Promise<{ items: ArtifactView[]; endCursor?: string; hasNextPage: boolean }>;
  openNotices(workspaceId: string, taskId: string): Promise<ChangeNoticeView[]>;
}
