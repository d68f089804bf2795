import type { ArtifactAuthor, ArtifactKind } from '@lomo/contracts';
import type {
  ArtifactCommands,
  ArtifactReader,
  ArtifactSnapshot,
  ArtifactWriteMeta,
  ArtifactWriteResult,
  FlowNodeEdit,
  InitialContent,
  SnippetEdit,
} from '../artifact-commands.port';
import { ArtifactRefusedError } from '../artifact-errors';
import type { ArtifactVersionView, ArtifactView, ChangeNoticeView, WorkspaceReadModel } from '../workspace-read.port';

interface FlowNodeState {
  nodeId: string;
  kind: string;
  params: Record<string, unknown>;
  version: number;
  /** The artefact version at which this node last changed (to tell a writer what moved). */
  changedAt: number;
}

interface Rec {
  artifactId: string;
  workspaceId: string;
  kind: ArtifactKind;
  title: string;
  version: number;
  revision: number;
  createdAt: string;
  updatedAt: string;
  deleted: boolean;
  deletionRequest?: { requestId: string; by: string };
  references: string[];
  versions: ArtifactVersionView[];
  texts: Map<number, string>;
  blobs: Map<number, { bytes: Buffer; contentType: string }>;
  flow?: {
    structureVersion: number;
    nodes: Map<string, FlowNodeState>;
    edges: Array<{ edgeId: string; from: string; to: string }>;
  };
  members?: string[];
}

export interface FakeWorkspaceOptions {
  /** Called after every write that changed something (the fake's stand-in for change notices). */
  onChange?: (workspaceId: string, artifactId: string, streamRevision: number) => void;
  /** Media bytes go here too when given, so routes that serve from the BlobStore find them. */
  putBlob?: (bytes: Buffer, contentType: string) => Promise<{ hash: string }>;
  now?: () => string;
}

/** Every call the fake took, for assertions ("the delete named the checkpoint that authorized it"). */
export interface FakeWorkspaceCall {
  method: keyof ArtifactCommands;
  input: unknown;
  meta: ArtifactWriteMeta;
}

const refuse = (
  code: ConstructorParameters<typeof ArtifactRefusedError>[0],
  message: string,
  details: ConstructorParameters<typeof ArtifactRefusedError>[2],
) => new ArtifactRefusedError(code, message, details);

const byView = (by: ArtifactAuthor): ArtifactVersionView['by'] =>
  by.kind === 'generation' ? { kind: 'generation', jobId: by.jobId } : by;

const occurrences = (text: string, snippet: string): number => {
  if (snippet.length === 0) return 0;
  let count = 0;
  for (let at = text.indexOf(snippet); at >= 0; at = text.indexOf(snippet, at + 1)) count += 1;
  return count;
};

/**
 * An in-memory stand-in for the workspace's write side, its authoritative reads and its read
 * model at once, following the rules of the ports (artifact-commands.port.ts): stale bases are
 * refused with the current version and what changed, and a refusal changes nothing. Not the real
 * decider: tests of the tools and the API code against the ports with it.
 */
export class FakeWorkspace implements ArtifactCommands, ArtifactReader, WorkspaceReadModel {
  readonly calls: FakeWorkspaceCall[] = [];
  private readonly records = new Map<string, Rec>();
  private readonly notices: ChangeNoticeView[] = [];
  private readonly now: () => string;

  constructor(private readonly options: FakeWorkspaceOptions = {}) {
    this.now = options.now ?? (() => new Date().toISOString());
  }

  /** Test seeding of an open change notice (the real fan-out is another component's). */
  addNotice(notice: ChangeNoticeView): void {
    this.notices.push(notice);
  }

  // --- ArtifactCommands -----------------------------------------------------------------------

  async create(
    input: Parameters<ArtifactCommands['create']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'create', input, meta });
    const existing = this.records.get(input.artifactId);
    if (existing) {
      // A retried create lands on the same artefact; another workspace's id is not found.
      if (existing.workspaceId !== meta.workspaceId) throw this.notFound(input.artifactId);
      return this.result(existing);
    }
    this.checkContent(input.kind, input.content, input.artifactId);
    const at = this.now();
    const rec: Rec = {
      artifactId: input.artifactId,
      workspaceId: meta.workspaceId,
      kind: input.kind,
      title: input.title,
      version: 1,
      revision: -1,
      createdAt: at,
      updatedAt: at,
      deleted: false,
      references: input.taskId !== undefined ? [input.taskId] : [],
      versions: [],
      texts: new Map(),
      blobs: new Map(),
    };
    await this.setContent(rec, input.content, 1);
    rec.versions.push(await this.versionView(rec, 1, input.by, 'created', input.content));
    this.records.set(rec.artifactId, rec);
    return this.changed(rec);
  }

  async rewriteDocument(
    input: { artifactId: string; baseVersion: number; text: string; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'rewriteDocument', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId, 'document');
    if (input.baseVersion !== rec.version) {
      throw refuse(
        'ARTIFACT_VERSION_CONFLICT',
        `The document is at version ${rec.version}, not ${input.baseVersion}: read it again and resubmit`,
        { artifactId: rec.artifactId, currentVersion: rec.version },
      );
    }
    const version = rec.version + 1;
    rec.texts.set(version, input.text);
    rec.version = version;
    rec.versions.push({ ...this.base(version, input.by, 'replaced'), bytes: Buffer.byteLength(input.text) });
    return this.changed(rec);
  }

  async editDocument(
    input: { artifactId: string; baseVersion: number; edits: SnippetEdit[]; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'editDocument', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId, 'document');
    let text = rec.texts.get(rec.version) ?? '';
    const failed: Array<{ index: number; reason: 'not_found' | 'not_unique' }> = [];
    input.edits.forEach((edit, index) => {
      const count = occurrences(text, edit.old);
      if (count !== 1) failed.push({ index, reason: count === 0 ? 'not_found' : 'not_unique' });
    });
    if (input.edits.length === 0 || failed.length > 0) {
      const code = failed.some((f) => f.reason === 'not_found') ? 'SNIPPET_NOT_FOUND' : 'SNIPPET_NOT_UNIQUE';
      throw refuse(
        input.edits.length === 0 ? 'ARTIFACT_INVALID_INPUT' : code,
        `No edit applied: ${failed.length} of ${input.edits.length} snippets do not occur exactly once in version ${rec.version}`,
        { artifactId: rec.artifactId, currentVersion: rec.version, failedEdits: failed },
      );
    }
    for (const edit of input.edits) text = text.replace(edit.old, () => edit.new);
    const version = rec.version + 1;
    rec.texts.set(version, text);
    rec.version = version;
    rec.versions.push({
      ...this.base(version, input.by, 'snippets_edited'),
      summary: `${input.edits.length} snippets`,
    });
    return this.changed(rec);
  }

  async editFlowNodes(
    input: { artifactId: string; baseVersion: number; edits: FlowNodeEdit[]; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'editFlowNodes', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId, 'flow');
    const flow = rec.flow!;
    const deleted = input.edits.filter((e) => !flow.nodes.has(e.nodeId));
    if (deleted.length > 0) {
      throw refuse('FLOW_NODE_DELETED', `Node ${deleted[0].nodeId} is no longer in the flow`, {
        artifactId: rec.artifactId,
        currentVersion: rec.version,
        changedNodes: [],
      });
    }
    const moved = input.edits
      .map((e) => flow.nodes.get(e.nodeId)!)
      .filter((n, i) => n.version !== input.edits[i].baseNodeVersion);
    if (moved.length > 0) {
      throw refuse(
        'FLOW_NODE_CONFLICT',
        `Nodes changed since your base: ${moved.map((n) => `${n.nodeId} is at version ${n.version}`).join(', ')}`,
        {
          artifactId: rec.artifactId,
          currentVersion: rec.version,
          changedNodes: moved.map((n) => ({ nodeId: n.nodeId, version: n.version })),
        },
      );
    }
    const version = rec.version + 1;
    const nodeVersions: Record<string, number> = {};
    for (const edit of input.edits) {
      const node = flow.nodes.get(edit.nodeId)!;
      node.params = edit.params;
      node.version += 1;
      node.changedAt = version;
      nodeVersions[node.nodeId] = node.version;
    }
    const touched = new Set(input.edits.map((e) => e.nodeId));
    const otherChangedNodes = [...flow.nodes.values()]
      .filter((n) => !touched.has(n.nodeId) && n.changedAt > input.baseVersion)
      .map((n) => ({ nodeId: n.nodeId, version: n.version }));
    rec.version = version;
    rec.versions.push({ ...this.base(version, input.by, 'flow_nodes'), summary: [...touched].join(', ') });
    return { ...this.changed(rec), otherChangedNodes, nodeVersions };
  }

  async changeFlowStructure(
    input: Parameters<ArtifactCommands['changeFlowStructure']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'changeFlowStructure', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId, 'flow');
    const flow = rec.flow!;
    if (input.baseStructureVersion !== flow.structureVersion) {
      throw refuse('FLOW_STRUCTURE_CONFLICT', `The flow's structure is at version ${flow.structureVersion}`, {
        artifactId: rec.artifactId,
        currentVersion: rec.version,
        currentStructureVersion: flow.structureVersion,
      });
    }
    const version = rec.version + 1;
    for (const id of input.removeNodeIds ?? []) flow.nodes.delete(id);
    for (const n of input.addNodes ?? []) flow.nodes.set(n.nodeId, { ...n, version: 1, changedAt: version });
    flow.edges = flow.edges.filter((e) => !(input.removeEdgeIds ?? []).includes(e.edgeId));
    flow.edges.push(...(input.addEdges ?? []));
    flow.structureVersion += 1;
    rec.version = version;
    rec.versions.push(this.base(version, input.by, 'flow_structure'));
    return this.changed(rec);
  }

  async replaceContent(
    input: { artifactId: string; baseVersion: number; content: InitialContent; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'replaceContent', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId);
    if (input.baseVersion !== rec.version) {
      throw refuse('ARTIFACT_VERSION_CONFLICT', `The artefact is at version ${rec.version}`, {
        artifactId: rec.artifactId,
        currentVersion: rec.version,
      });
    }
    this.checkContent(rec.kind, input.content, rec.artifactId);
    const version = rec.version + 1;
    await this.setContent(rec, input.content, version);
    rec.version = version;
    rec.versions.push(await this.versionView(rec, version, input.by, 'replaced', input.content));
    return this.changed(rec);
  }

  async restoreVersion(
    input: { artifactId: string; baseVersion: number; fromVersion: number; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'restoreVersion', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId);
    if (input.baseVersion !== rec.version) {
      throw refuse('ARTIFACT_VERSION_CONFLICT', `The artefact is at version ${rec.version}`, {
        artifactId: rec.artifactId,
        currentVersion: rec.version,
      });
    }
    const version = rec.version + 1;
    const text = rec.texts.get(input.fromVersion);
    if (text !== undefined) rec.texts.set(version, text);
    const blob = rec.blobs.get(input.fromVersion);
    if (blob !== undefined) rec.blobs.set(version, blob);
    const from = rec.versions.find((v) => v.version === input.fromVersion);
    rec.version = version;
    rec.versions.push({
      ...this.base(version, input.by, 'restored'),
      ...(from?.contentHash !== undefined ? { contentHash: from.contentHash } : {}),
      ...(from?.contentType !== undefined ? { contentType: from.contentType } : {}),
    });
    return this.changed(rec);
  }

  async reference(
    input: { artifactId: string; taskId: string; by: ArtifactAuthor },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'reference', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId);
    if (rec.references.includes(input.taskId)) return this.result(rec);
    rec.references.push(input.taskId);
    return this.changed(rec);
  }

  async requestDeletion(
    input: { artifactId: string; requestId: string },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'requestDeletion', input, meta });
    const rec = this.writable(meta.workspaceId, input.artifactId);
    if (rec.deletionRequest?.requestId === input.requestId) return this.result(rec);
    const by = meta.actor.kind === 'user' ? meta.actor.userId : meta.actor.kind;
    rec.deletionRequest = { requestId: input.requestId, by };
    return this.changed(rec);
  }

  async confirmDeletion(
    input: { artifactId: string; requestId: string; userId: string },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'confirmDeletion', input, meta });
    const rec = this.owned(meta.workspaceId, input.artifactId);
    if (rec.deleted) return this.result(rec);
    if (rec.deletionRequest?.requestId !== input.requestId) {
      throw refuse('DELETION_NOT_CONFIRMED', `No deletion request ${input.requestId} for this artefact`, {
        artifactId: rec.artifactId,
        currentVersion: rec.version,
      });
    }
    rec.deleted = true;
    return this.changed(rec);
  }

  async deleteWithCheckpoint(
    input: { artifactId: string; taskId: string; checkpointId: string },
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    this.calls.push({ method: 'deleteWithCheckpoint', input, meta });
    // The real decider checks the checkpoint's resolution in the task stream; the fake records it.
    const rec = this.owned(meta.workspaceId, input.artifactId);
    if (rec.deleted) return this.result(rec);
    rec.deleted = true;
    return this.changed(rec);
  }

  // --- ArtifactReader -------------------------------------------------------------------------

  async snapshot(workspaceId: string, artifactId: string): Promise<ArtifactSnapshot | undefined> {
    const rec = this.find(workspaceId, artifactId);
    if (!rec) return undefined;
    const { kind, title, version, deleted } = rec;
    return { artifactId, workspaceId, kind, title, version, deleted, references: [...rec.references] };
  }

  async documentText(
    workspaceId: string,
    artifactId: string,
    version?: number,
  ): Promise<{ version: number; text: string } | undefined> {
    const rec = this.find(workspaceId, artifactId);
    if (!rec || rec.kind !== 'document') return undefined;
    const at = version ?? rec.version;
    const text = rec.texts.get(at);
    return text === undefined ? undefined : { version: at, text };
  }

  async flow(workspaceId: string, artifactId: string) {
    const rec = this.find(workspaceId, artifactId);
    if (!rec?.flow) return undefined;
    return {
      version: rec.version,
      structureVersion: rec.flow.structureVersion,
      nodes: [...rec.flow.nodes.values()].map(({ nodeId, kind, params, version }) => ({
        nodeId,
        kind,
        params: structuredClone(params),
        version,
      })),
      edges: rec.flow.edges.map((e) => ({ ...e })),
    };
  }

  /** Media bytes of a version, for tests (the API serves them from the BlobStore). */
  mediaOf(workspaceId: string, artifactId: string, version?: number) {
    const rec = this.find(workspaceId, artifactId);
    return rec?.blobs.get(version ?? rec.version);
  }

  // --- WorkspaceReadModel ---------------------------------------------------------------------

  async artifact(workspaceId: string, artifactId: string): Promise<ArtifactView | undefined> {
    const rec = this.find(workspaceId, artifactId);
    return rec ? this.view(rec) : undefined;
  }

  async artifacts(
    workspaceId: string,
    filter: { kind?: ArtifactKind; taskId?: string; text?: string; includeDeleted?: boolean },
    page: { first: number; after?: string },
  ): Promise<{ items: ArtifactView[]; endCursor?: string; hasNextPage: boolean }> {
    const text = filter.text?.toLowerCase();
    const all = [...this.records.values()]
      .filter((r) => r.workspaceId === workspaceId)
      .filter((r) => filter.includeDeleted === true || !r.deleted)
      .filter((r) => filter.kind === undefined || r.kind === filter.kind)
      .filter((r) => filter.taskId === undefined || r.references.includes(filter.taskId))
      .filter((r) => text === undefined || this.searchText(r).includes(text))
      // Most recently changed first, as the real read model lists them.
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.artifactId.localeCompare(b.artifactId));
    const start = page.after === undefined ? 0 : all.findIndex((r) => r.artifactId === page.after) + 1;
    const items = all.slice(start, start + page.first);
    const last = items.at(-1);
    return {
      items: items.map((r) => this.view(r)),
      ...(last ? { endCursor: last.artifactId } : {}),
      hasNextPage: start + page.first < all.length,
    };
  }

  async openNotices(workspaceId: string, taskId: string): Promise<ChangeNoticeView[]> {
    return this.notices.filter((n) => n.taskId === taskId && this.find(workspaceId, n.artifactId) !== undefined);
  }

  // --- internals ------------------------------------------------------------------------------

  private find(workspaceId: string, artifactId: string): Rec | undefined {
    const rec = this.records.get(artifactId);
    return rec?.workspaceId === workspaceId ? rec : undefined;
  }

  private notFound(artifactId: string) {
    return refuse('ARTIFACT_NOT_FOUND', `No artefact ${artifactId}`, { artifactId });
  }

  private owned(workspaceId: string, artifactId: string): Rec {
    const rec = this.find(workspaceId, artifactId);
    if (!rec) throw this.notFound(artifactId);
    return rec;
  }

  private writable(workspaceId: string, artifactId: string, kind?: ArtifactKind): Rec {
    const rec = this.owned(workspaceId, artifactId);
    if (rec.deleted) {
      throw refuse('ARTIFACT_DELETED', `Artefact ${artifactId} was deleted`, {
        artifactId,
        currentVersion: rec.version,
      });
    }
    if (kind !== undefined && rec.kind !== kind) {
      throw refuse('ARTIFACT_KIND_MISMATCH', `Artefact ${artifactId} is a ${rec.kind}, not a ${kind}`, {
        artifactId,
        currentVersion: rec.version,
      });
    }
    return rec;
  }

  private checkContent(kind: ArtifactKind, content: InitialContent, artifactId: string): void {
    const expected =
      kind === 'document' ? 'document' : kind === 'flow' ? 'flow' : kind === 'asset_set' ? 'asset_set' : 'blob';
    if (content.type !== expected) {
      throw refuse('ARTIFACT_KIND_MISMATCH', `A ${kind} holds ${expected} content, not ${content.type}`, {
        artifactId,
      });
    }
  }

  private async setContent(rec: Rec, content: InitialContent, version: number): Promise<void> {
    if (content.type === 'document') rec.texts.set(version, content.text);
    else if (content.type === 'blob')
      rec.blobs.set(version, { bytes: content.bytes, contentType: content.contentType });
    else if (content.type === 'asset_set') rec.members = [...content.members];
    else {
      rec.flow = {
        structureVersion: 1,
        nodes: new Map(content.nodes.map((n) => [n.nodeId, { ...n, version: 1, changedAt: version }])),
        edges: content.edges.map((e) => ({ ...e })),
      };
    }
  }

  private base(version: number, by: ArtifactAuthor, change: ArtifactVersionView['change']): ArtifactVersionView {
    return { version, at: this.now(), by: byView(by), change };
  }

  private async versionView(
    rec: Rec,
    version: number,
    by: ArtifactAuthor,
    change: ArtifactVersionView['change'],
    content: InitialContent,
  ): Promise<ArtifactVersionView> {
    const view = this.base(version, by, change);
    if (content.type === 'blob') {
      const stored = await this.options.putBlob?.(content.bytes, content.contentType);
      return {
        ...view,
        contentType: content.contentType,
        bytes: content.bytes.length,
        ...(stored ? { contentHash: stored.hash } : {}),
      };
    }
    if (content.type === 'document') return { ...view, bytes: Buffer.byteLength(content.text) };
    return view;
  }

  private searchText(rec: Rec): string {
    return `${rec.title}\n${rec.texts.get(rec.version) ?? ''}`.toLowerCase();
  }

  private view(rec: Rec): ArtifactView {
    return {
      artifactId: rec.artifactId,
      workspaceId: rec.workspaceId,
      kind: rec.kind,
      title: rec.title,
      version: rec.version,
      createdAt: rec.createdAt,
      updatedAt: rec.updatedAt,
      deleted: rec.deleted,
      ...(rec.deletionRequest ? { deletionRequested: { ...rec.deletionRequest } } : {}),
      taskIds: [...rec.references],
      versions: rec.versions.map((v) => ({ ...v })),
      ...(rec.flow
        ? {
            flow: {
              structureVersion: rec.flow.structureVersion,
              nodes: [...rec.flow.nodes.values()].map((n) => ({ nodeId: n.nodeId, kind: n.kind, version: n.version })),
              edgeCount: rec.flow.edges.length,
            },
          }
        : {}),
      ...(rec.members ? { members: [...rec.members] } : {}),
    };
  }

  private result(rec: Rec): ArtifactWriteResult {
    return { artifactId: rec.artifactId, version: rec.version, streamRevision: rec.revision };
  }

  private changed(rec: Rec): ArtifactWriteResult {
    // One append per changing write: the stream revision a consistency token would name.
    rec.revision += 1;
    rec.updatedAt = this.now();
    this.options.onChange?.(rec.workspaceId, rec.artifactId, rec.revision);
    return this.result(rec);
  }
}
