import { createHash } from 'node:crypto';
import type { BlobStore } from '@lomo/blobs';
import { AggregateStream } from '@lomo/command-handling';
import { ConcurrencyError, streams, type IdGenerator, type WriteMetadata } from '@lomo/contracts';
import { DomainError, taskDecider, taskEventTypes } from '@lomo/domain';
import type { EventStore } from '@lomo/eventstore';
import {
  artifactDecider,
  artifactEventTypes,
  nodesChangedSince,
  planSnippets,
  textReadPlan,
  type ArtifactCommand,
  type ArtifactEvent,
  type ArtifactState,
  type CreateContent,
  type LiveArtifact,
  type NewFlowNode,
} from '../artifact';
import type {
  ArtifactCommands,
  ArtifactReader,
  ArtifactSnapshot,
  ArtifactWriteMeta,
  ArtifactWriteResult,
} from '../artifact-commands.port';
import { ArtifactRefusedError } from '../artifact-errors';
import type { DocumentTextStore } from '../document';
import {
  changeFlowStructureInput,
  confirmDeletionInput,
  createInput,
  deleteWithCheckpointInput,
  editDocumentInput,
  editFlowNodesInput,
  parseInput,
  referenceInput,
  replaceContentInput,
  requestDeletionInput,
  restoreInput,
  rewriteInput,
  writeMetaSchema,
} from './artifact-inputs';

type Stream = AggregateStream<ArtifactEvent, ArtifactState>;

export interface ArtifactCommandServiceDeps {
  store: EventStore;
  /** Document text: snapshots and patches (the SQLite blob table in the embedded default). */
  texts: DocumentTextStore;
  /** Media bytes (the platform's BlobStore). */
  media: BlobStore;
  ids: IdGenerator;
  /** Artefact streams kept folded in memory between writes (least recently used out first). */
  maxCachedStreams?: number;
  /**
   * Decisions per write before a lost race gives up with the ConcurrencyError. High, because each
   * loss means another writer made progress: 50 writers on one flow lose up to 49 times each.
   */
  maxAttempts?: number;
}

/** What one write does around the decision: blobs before the append, the text cache after. */
interface Prepared {
  command: ArtifactCommand;
  beforeAppend?: (events: ArtifactEvent[]) => Promise<void>;
  afterAppend?: (events: ArtifactEvent[], state: ArtifactState) => void;
  result?: (state: ArtifactState) => Partial<ArtifactWriteResult>;
}

const DEFAULT_DOCUMENT_TYPE = 'text/markdown';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The shared workspace's write side and authoritative reads. Each write is: take the artefact's
 * stream (folded state kept in memory, so an edit costs the same at version 10 and 10 000),
 * decide with the pure artefact decider, write the blobs the events reference, append at the
 * revision the decision was made on. The append's expected revision is the fence: a writer that
 * lost a race folds only the new events and decides again, so a stale base gets its typed
 * refusal, never a lost update. A decision made on cached state that refuses or finds nothing to
 * do is checked against the store once before it is believed.
 */
export class ArtifactCommandService implements ArtifactCommands, ArtifactReader {
  private readonly streams = new Map<string, Stream>();
  private readonly maxCachedStreams: number;
  private readonly maxAttempts: number;

  constructor(private readonly deps: ArtifactCommandServiceDeps) {
    this.maxCachedStreams = deps.maxCachedStreams ?? 1_000;
    this.maxAttempts = deps.maxAttempts ?? 128;
  }

  // ---- writes ------------------------------------------------------------------------------

  async create(
    input: Parameters<ArtifactCommands['create']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(createInput, input);
    const content = this.createContent(i.content);
    return this.write(i.artifactId, meta, true, () => ({
      command: {
        type: 'CreateArtifact',
        artifactId: i.artifactId,
        kind: i.kind,
        title: i.title,
        by: i.by,
        content: content.decided,
        ...(i.taskId !== undefined ? { taskId: i.taskId } : {}),
      },
      beforeAppend: content.beforeAppend,
      afterAppend: content.afterAppend,
    }));
  }

  async rewriteDocument(
    input: Parameters<ArtifactCommands['rewriteDocument']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(rewriteInput, input);
    return this.write(i.artifactId, meta, false, (state) => {
      const contentType = documentType(state);
      return {
        command: { type: 'RewriteDocument', baseVersion: i.baseVersion, text: i.text, by: i.by },
        beforeAppend: async () => {
          await this.deps.texts.writeSnapshot(i.text, contentType);
        },
        afterAppend: (_, after) => this.rememberLatest(after, i.text, state),
      };
    });
  }

  async editDocument(
    input: Parameters<ArtifactCommands['editDocument']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(editDocumentInput, input);
    return this.write(i.artifactId, meta, false, async (state) => {
      const currentText = await this.currentText(i.artifactId, state);
      const command = {
        type: 'EditDocumentSnippets' as const,
        baseVersion: i.baseVersion,
        edits: i.edits,
        by: i.by,
        currentText,
      };
      // The decider planned this very (text, edits) pair; planSnippets hands back the same plan.
      const plan = () => {
        const p = planSnippets(currentText, command.edits);
        if (!p.ok) throw new Error('A decided snippet edit no longer plans');
        return p;
      };
      return {
        command,
        beforeAppend: async (events) => {
          const p = plan();
          await this.deps.texts.writePatch(p.patch);
          const change = events[0]?.type === 'ArtifactRevised' ? events[0].data.change : undefined;
          if (change?.type === 'snippets_edited' && change.text.snapshot !== undefined)
            await this.deps.texts.writeSnapshot(p.text, change.text.snapshot.contentType);
        },
        afterAppend: () => {
          const p = plan();
          this.deps.texts.remember(p.textHash, p.text, latestTextHash(state));
        },
      };
    });
  }

  async editFlowNodes(
    input: Parameters<ArtifactCommands['editFlowNodes']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(editFlowNodesInput, input);
    const touched = new Set(i.edits.map((e) => e.nodeId));
    return this.write(i.artifactId, meta, false, () => ({
      command: { type: 'EditFlowNodes', baseVersion: i.baseVersion, edits: i.edits, by: i.by },
      result: (state) => {
        if (state.status !== 'live' || state.body.type !== 'flow') return {};
        const body = state.body;
        return {
          otherChangedNodes: nodesChangedSince(body, i.baseVersion, touched),
          nodeVersions: Object.fromEntries([...touched].map((id) => [id, body.nodes[id]?.version ?? 0])),
        };
      },
    }));
  }

  async changeFlowStructure(
    input: Parameters<ArtifactCommands['changeFlowStructure']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(changeFlowStructureInput, input);
    return this.write(i.artifactId, meta, false, () => ({
      command: {
        type: 'ChangeFlowStructure',
        baseStructureVersion: i.baseStructureVersion,
        addNodes: i.addNodes ?? [],
        removeNodeIds: i.removeNodeIds ?? [],
        addEdges: i.addEdges ?? [],
        removeEdgeIds: i.removeEdgeIds ?? [],
        by: i.by,
      },
    }));
  }

  async replaceContent(
    input: Parameters<ArtifactCommands['replaceContent']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(replaceContentInput, input);
    if (i.content.type !== 'blob' && i.content.type !== 'asset_set')
      throw new ArtifactRefusedError(
        'ARTIFACT_KIND_MISMATCH',
        'Documents are rewritten or edited, flows edited: replace is for media and asset sets',
        {
          artifactId: i.artifactId,
        },
      );
    const content = i.content;
    const blob =
      content.type === 'blob'
        ? { hash: sha256(content.bytes), bytes: content.bytes.length, contentType: content.contentType }
        : undefined;
    return this.write(i.artifactId, meta, false, () => ({
      command: {
        type: 'ReplaceContent',
        baseVersion: i.baseVersion,
        content:
          blob !== undefined
            ? { type: 'blob', blob }
            : { type: 'asset_set', members: content.type === 'asset_set' ? content.members : [] },
        by: i.by,
      },
      beforeAppend: async () => {
        if (content.type === 'blob') await this.deps.media.put(content.bytes, content.contentType);
      },
    }));
  }

  async restoreVersion(
    input: Parameters<ArtifactCommands['restoreVersion']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(restoreInput, input);
    return this.write(i.artifactId, meta, false, async (state) => {
      const flow =
        state.status === 'live' && state.body.type === 'flow'
          ? await this.flowAt(i.artifactId, i.fromVersion)
          : undefined;
      const oldText =
        state.status === 'live' && state.body.type === 'document' ? textReadPlan(state, i.fromVersion) : undefined;
      return {
        command: {
          type: 'RestoreVersion',
          baseVersion: i.baseVersion,
          fromVersion: i.fromVersion,
          by: i.by,
          ...(flow !== undefined ? { fromFlow: flow } : {}),
        },
        beforeAppend: async () => {
          // The restored text becomes a snapshot: write it unless that blob exists already.
          if (oldText === undefined || (await this.deps.texts.blobs.has(oldText.hash))) return;
          const text = await this.deps.texts.read(oldText);
          if (text === undefined)
            throw new ArtifactRefusedError('ARTIFACT_NOT_FOUND', `The text of version ${i.fromVersion} was forgotten`, {
              artifactId: i.artifactId,
            });
          await this.deps.texts.writeSnapshot(text, documentType(state));
        },
      };
    });
  }

  async reference(
    input: Parameters<ArtifactCommands['reference']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(referenceInput, input);
    return this.write(i.artifactId, meta, false, () => ({
      command: { type: 'ReferenceArtifact', taskId: i.taskId, by: i.by },
    }));
  }

  async requestDeletion(
    input: Parameters<ArtifactCommands['requestDeletion']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(requestDeletionInput, input);
    return this.write(i.artifactId, meta, false, () => ({
      command: { type: 'RequestDeletion', requestId: i.requestId, by: meta.actor },
    }));
  }

  async confirmDeletion(
    input: Parameters<ArtifactCommands['confirmDeletion']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(confirmDeletionInput, input);
    return this.write(i.artifactId, meta, false, () => ({
      command: { type: 'ConfirmDeletion', requestId: i.requestId, confirmedBy: i.userId, by: meta.actor },
    }));
  }

  async deleteWithCheckpoint(
    input: Parameters<ArtifactCommands['deleteWithCheckpoint']>[0],
    meta: ArtifactWriteMeta,
  ): Promise<ArtifactWriteResult> {
    const i = parseInput(deleteWithCheckpointInput, input);
    return this.write(i.artifactId, meta, false, async () => ({
      command: {
        type: 'DeleteWithCheckpoint',
        taskId: i.taskId,
        checkpointId: i.checkpointId,
        approval: await this.approvalOf(i, meta),
        by: meta.actor,
      },
    }));
  }

  // ---- reads -------------------------------------------------------------------------------

  async snapshot(workspaceId: string, artifactId: string): Promise<ArtifactSnapshot | undefined> {
    const state = await this.readState(workspaceId, artifactId);
    if (state === undefined || state.status === 'none') return undefined;
    return {
      artifactId: state.artifactId,
      workspaceId,
      kind: state.kind,
      title: state.title,
      version: state.version,
      deleted: state.status === 'deleted',
      references: [...state.references],
    };
  }

  async documentText(
    workspaceId: string,
    artifactId: string,
    version?: number,
  ): Promise<{ version: number; text: string } | undefined> {
    const state = await this.readState(workspaceId, artifactId);
    if (state === undefined) return undefined;
    const plan = textReadPlan(state, version);
    if (plan === undefined) return undefined;
    const text = await this.deps.texts.read(plan);
    return text === undefined ? undefined : { version: plan.version, text };
  }

  async flow(workspaceId: string, artifactId: string): ReturnType<ArtifactReader['flow']> {
    const state = await this.readState(workspaceId, artifactId);
    if (state === undefined || state.status !== 'live' || state.body.type !== 'flow') return undefined;
    const body = state.body;
    return {
      version: state.version,
      structureVersion: body.structureVersion,
      nodes: Object.values(body.nodes).map((n) => ({
        nodeId: n.nodeId,
        kind: n.kind,
        params: n.params,
        version: n.version,
      })),
      edges: Object.values(body.edges).map((e) => ({ ...e })),
    };
  }

  // ---- the write loop ----------------------------------------------------------------------

  private async write(
    artifactId: string,
    rawMeta: ArtifactWriteMeta,
    creating: boolean,
    prepare: (state: ArtifactState) => Prepared | Promise<Prepared>,
  ): Promise<ArtifactWriteResult> {
    const meta = parseInput(writeMetaSchema, rawMeta);
    const { store, ids } = this.deps;
    const { stream, fresh: readNow } = await this.streamOf(artifactId);
    let fresh = readNow;
    const metadata: WriteMetadata = {
      correlationId: meta.correlationId,
      causationId: meta.causationId ?? null,
      workspaceId: meta.workspaceId,
      actor: meta.actor,
    };
    for (let attempt = 1; ; attempt += 1) {
      let prepared: Prepared;
      let events: ArtifactEvent[];
      // Other writes of this process fold into the shared stream while this one awaits: decide
      // on the state as taken here and append at its revision, so the store fences the rest.
      const state = stream.state;
      const revision = stream.revision;
      try {
        this.guardWorkspace(stream, meta.workspaceId, artifactId);
        if (!creating && state.status === 'none')
          throw new ArtifactRefusedError('ARTIFACT_NOT_FOUND', `Artefact ${artifactId} does not exist`, { artifactId });
        prepared = await prepare(state);
        events = artifactDecider.decide(prepared.command, state);
      } catch (error) {
        // A refusal decided on cached state is believed only once the state is known current.
        if (stream.revision !== revision) continue;
        if (!fresh && error instanceof DomainError) {
          fresh = true;
          if ((await stream.catchUp(store)).length > 0) continue;
        }
        throw error;
      }
      if (events.length === 0) {
        if (stream.revision !== revision) continue;
        if (!fresh) {
          fresh = true;
          if ((await stream.catchUp(store)).length > 0) continue;
        }
        return this.resultOf(artifactId, stream, prepared);
      }
      await prepared.beforeAppend?.(events);
      try {
        await stream.append(store, events, metadata, ids, { expected: revision });
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= this.maxAttempts) throw error;
        // Another writer got there first: fold only its events and decide again on them.
        await stream.catchUp(store);
        fresh = true;
        if (attempt > 2) await pause(Math.random() * Math.min(20, attempt * 2));
        continue;
      }
      prepared.afterAppend?.(events, stream.state);
      return this.resultOf(artifactId, stream, prepared);
    }
  }

  private resultOf(artifactId: string, stream: Stream, prepared: Prepared): ArtifactWriteResult {
    const state = stream.state;
    return {
      artifactId,
      version: state.status === 'none' ? 0 : state.version,
      streamRevision: stream.revision === 'no_stream' ? -1 : stream.revision,
      ...prepared.result?.(state),
    };
  }

  /** The cached stream (moved to the young end), or a fresh read of it. */
  private async streamOf(artifactId: string): Promise<{ stream: Stream; fresh: boolean }> {
    const cached = this.streams.get(artifactId);
    if (cached !== undefined) {
      this.streams.delete(artifactId);
      this.streams.set(artifactId, cached);
      return { stream: cached, fresh: false };
    }
    const stream = await AggregateStream.read(
      this.deps.store,
      streams.artifact(artifactId),
      artifactDecider,
      artifactEventTypes,
    );
    this.streams.set(artifactId, stream);
    if (this.streams.size > this.maxCachedStreams) {
      const oldest = this.streams.keys().next().value;
      if (oldest !== undefined) this.streams.delete(oldest);
    }
    return { stream, fresh: true };
  }

  /** Reads are authoritative: the cached state catches up with the store first. */
  private async readState(workspaceId: string, artifactId: string): Promise<ArtifactState | undefined> {
    const { stream, fresh } = await this.streamOf(artifactId);
    if (!fresh) await stream.catchUp(this.deps.store);
    if (stream.workspaceId !== undefined && stream.workspaceId !== workspaceId) return undefined;
    return stream.state;
  }

  /** Another workspace's artefact is "not found", exactly as a missing one (no existence leak). */
  private guardWorkspace(stream: Stream, workspaceId: string, artifactId: string): void {
    if (stream.workspaceId !== undefined && stream.workspaceId !== workspaceId)
      throw new ArtifactRefusedError('ARTIFACT_NOT_FOUND', `Artefact ${artifactId} does not exist`, { artifactId });
  }

  private async currentText(artifactId: string, state: ArtifactState): Promise<string> {
    // Not a live document: the decider refuses it (kind, deleted) before looking at the text.
    const plan = textReadPlan(state);
    if (plan === undefined) return '';
    const text = await this.deps.texts.read(plan);
    if (text === undefined)
      throw new ArtifactRefusedError('ARTIFACT_NOT_FOUND', `The text of artefact ${artifactId} was forgotten`, {
        artifactId,
      });
    return text;
  }

  /** The text of the version just written; `before`, the state it was decided on, names the one it follows. */
  private rememberLatest(state: ArtifactState, text: string, before?: ArtifactState): void {
    const hash = latestTextHash(state);
    if (hash !== undefined) this.deps.texts.remember(hash, text, before && latestTextHash(before));
  }

  private createContent(content: ReturnType<typeof createInput.parse>['content']): {
    decided: CreateContent;
    beforeAppend?: Prepared['beforeAppend'];
    afterAppend?: Prepared['afterAppend'];
  } {
    switch (content.type) {
      case 'document': {
        const contentType = content.contentType ?? DEFAULT_DOCUMENT_TYPE;
        return {
          decided: { type: 'document', text: content.text, contentType },
          beforeAppend: async () => {
            await this.deps.texts.writeSnapshot(content.text, contentType);
          },
          afterAppend: (_, state) => this.rememberLatest(state, content.text),
        };
      }
      case 'flow':
        return { decided: { type: 'flow', nodes: content.nodes, edges: content.edges } };
      case 'blob': {
        const blob = { hash: sha256(content.bytes), bytes: content.bytes.length, contentType: content.contentType };
        return {
          decided: { type: 'blob', blob },
          beforeAppend: async () => {
            await this.deps.media.put(content.bytes, content.contentType);
          },
        };
      }
      case 'asset_set':
        return { decided: { type: 'asset_set', members: content.members } };
    }
  }

  /** The flow as it was at `version`, folded from the stream (restores are rare; no cache). */
  private async flowAt(
    artifactId: string,
    version: number,
  ): Promise<{ nodes: NewFlowNode[]; edges: Array<{ edgeId: string; from: string; to: string }> } | undefined> {
    const envelopes = await this.deps.store.readStream(streams.artifact(artifactId));
    let state = artifactDecider.initialState();
    let at: LiveArtifact | undefined;
    for (const envelope of envelopes) {
      if (!(artifactEventTypes as readonly string[]).includes(envelope.type)) continue;
      state = artifactDecider.evolve(state, { type: envelope.type, data: envelope.data } as ArtifactEvent);
      if (state.status === 'live' && state.version <= version) at = state;
    }
    if (at === undefined || at.version !== version || at.body.type !== 'flow') return undefined;
    return {
      nodes: Object.values(at.body.nodes).map((n) => ({ nodeId: n.nodeId, kind: n.kind, params: n.params })),
      edges: Object.values(at.body.edges).map((e) => ({ ...e })),
    };
  }

  /**
   * The person's recorded decision on the task's approval checkpoint, read from the task stream.
   * The task decider ignores resolutions the agent recorded itself, so a model's claim never counts.
   */
  private async approvalOf(
    input: { artifactId: string; taskId: string; checkpointId: string },
    meta: { workspaceId: string },
  ): Promise<{ decision: 'approve' | 'reject'; resolvedBy: string } | null> {
    const task = await AggregateStream.read(this.deps.store, streams.task(input.taskId), taskDecider, taskEventTypes);
    if (task.workspaceId !== meta.workspaceId || task.state.status === 'none') return null;
    const checkpoint = task.state.checkpoints[input.checkpointId];
    if (checkpoint === undefined || checkpoint.kind !== 'approval' || checkpoint.resolution === null) return null;
    const { decision, resolvedBy } = checkpoint.resolution;
    return { decision: decision === 'approve' ? 'approve' : 'reject', resolvedBy };
  }
}

function latestTextHash(state: ArtifactState): string | undefined {
  return state.status === 'live' && state.body.type === 'document' ? state.body.text.hash : undefined;
}

function documentType(state: ArtifactState): string {
  return state.status === 'live' && state.body.type === 'document' ? state.body.contentType : DEFAULT_DOCUMENT_TYPE;
}
