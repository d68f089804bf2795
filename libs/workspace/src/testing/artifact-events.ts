import { createHash, randomUUID } from 'node:crypto';
import { streams, type Actor, type ArtifactAuthor, type EventDataMap, type NewEvent } from '@lomo/contracts';
import type { EventStore, Position } from '@lomo/eventstore';

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
const docText = (text: string) => ({ hash: hashOf(text), bytes: Buffer.byteLength(text) });

type ArtifactEventType =
  | 'ArtifactCreated'
  | 'ArtifactRevised'
  | 'FlowNodeRevised'
  | 'FlowStructureChanged'
  | 'ArtifactReferenced'
  | 'ArtifactDeletionRequested'
  | 'ArtifactDeleted';

/**
 * Writes artefact streams straight to the event store, as the artefact command service will (its
 * decider is built elsewhere): valid contract events at the exact expected revision, with the
 * version arithmetic the decider would do. Test setup only.
 */
export class ArtifactEventWriter {
  private readonly state = new Map<string, { revision: number; version: number; nodes: Map<string, number> }>();

  constructor(
    private readonly store: EventStore,
    readonly workspaceId: string,
  ) {}

  private async append(
    artifactId: string,
    events: Array<{ type: ArtifactEventType; data: EventDataMap[ArtifactEventType] }>,
    actor: Actor = { kind: 'system', component: 'workspace-test' },
  ): Promise<Position> {
    const current = this.state.get(artifactId);
    const newEvents: NewEvent[] = events.map((e) => ({
      eventId: randomUUID(),
      type: e.type,
      data: e.data,
      metadata: { correlationId: `test-${artifactId}`, causationId: null, workspaceId: this.workspaceId, actor },
    }));
    const result = await this.store.append(
      streams.artifact(artifactId),
      newEvents,
      current === undefined ? 'no_stream' : current.revision,
    );
    const after = this.state.get(artifactId);
    if (after) after.revision = result.nextExpectedRevision;
    else this.state.set(artifactId, { revision: result.nextExpectedRevision, version: 1, nodes: new Map() });
    return result.position;
  }

  version(artifactId: string): number {
    return this.state.get(artifactId)?.version ?? 0;
  }

  async createDocument(input: {
    artifactId?: string;
    title?: string;
    text?: string;
    by: ArtifactAuthor;
    taskId?: string;
  }): Promise<string> {
    const artifactId = input.artifactId ?? randomUUID();
    await this.append(artifactId, [
      {
        type: 'ArtifactCreated',
        data: {
          artifactId,
          kind: 'document',
          title: input.title ?? 'Storyboard',
          createdBy: input.by,
          ...(input.taskId !== undefined ? { taskId: input.taskId } : {}),
          content: { type: 'document', text: docText(input.text ?? 'v1') },
        },
      },
    ]);
    return artifactId;
  }

  async createFlow(input: {
    artifactId?: string;
    title?: string;
    nodeIds: string[];
    by: ArtifactAuthor;
    taskId?: string;
  }): Promise<string> {
    const artifactId = input.artifactId ?? randomUUID();
    const nodes = input.nodeIds.map((nodeId) => ({ nodeId, kind: 'step', params: {}, version: 1 }));
    const edges = input.nodeIds.slice(1).map((to, i) => ({ edgeId: `e${i}`, from: input.nodeIds[i]!, to }));
    await this.append(artifactId, [
      {
        type: 'ArtifactCreated',
        data: {
          artifactId,
          kind: 'flow',
          title: input.title ?? 'Workflow',
          createdBy: input.by,
          ...(input.taskId !== undefined ? { taskId: input.taskId } : {}),
          content: { type: 'flow', nodes, edges },
        },
      },
    ]);
    const state = this.state.get(artifactId)!;
    for (const n of input.nodeIds) state.nodes.set(n, 1);
    return artifactId;
  }

  /** A snippet edit of a document: one new version. */
  async editDocument(artifactId: string, by: ArtifactAuthor, summary = '1 snippet, +4 −2 chars'): Promise<Position> {
    const state = this.state.get(artifactId)!;
    const version = state.version + 1;
    const text = `text v${version}`;
    const position = await this.append(artifactId, [
      {
        type: 'ArtifactRevised',
        data: {
          version,
          baseVersion: state.version,
          by,
          change: {
            type: 'snippets_edited',
            patch: { hash: hashOf(`patch ${version}`), bytes: 20, contentType: 'application/json' },
            edits: 1,
            summary,
            text: docText(text),
          },
        },
      },
    ]);
    state.version = version;
    return position;
  }

  /** A flow edit of some nodes: one new flow version, one FlowNodeRevised per node. */
  async editFlowNodes(artifactId: string, nodeIds: string[], by: ArtifactAuthor): Promise<Position> {
    const state = this.state.get(artifactId)!;
    const version = state.version + 1;
    const events = nodeIds.map((nodeId) => {
      const base = state.nodes.get(nodeId) ?? 1;
      return {
        type: 'FlowNodeRevised' as const,
        data: { version, nodeId, nodeVersion: base + 1, baseNodeVersion: base, params: { v: version }, by },
      };
    });
    const position = await this.append(artifactId, events);
    for (const nodeId of nodeIds) state.nodes.set(nodeId, (state.nodes.get(nodeId) ?? 1) + 1);
    state.version = version;
    return position;
  }

  async addFlowNode(artifactId: string, nodeId: string, by: ArtifactAuthor): Promise<Position> {
    const state = this.state.get(artifactId)!;
    const version = state.version + 1;
    const structure = [...state.nodes.keys()].length;
    const position = await this.append(artifactId, [
      {
        type: 'FlowStructureChanged',
        data: {
          version,
          structureVersion: version,
          baseStructureVersion: Math.max(1, version - 1),
          addedNodes: [{ nodeId, kind: 'step', params: {}, version: 1 }],
          removedNodeIds: [],
          addedEdges: structure > 0 ? [{ edgeId: `e-${nodeId}`, from: [...state.nodes.keys()][0]!, to: nodeId }] : [],
          removedEdgeIds: [],
          by,
        },
      },
    ]);
    state.nodes.set(nodeId, 1);
    state.version = version;
    return position;
  }

  reference(artifactId: string, taskId: string, by: ArtifactAuthor): Promise<Position> {
    return this.append(artifactId, [{ type: 'ArtifactReferenced', data: { taskId, by } }]);
  }

  async deleteConfirmed(artifactId: string, userId: string): Promise<Position> {
    const requestId = randomUUID();
    const by: Actor = { kind: 'user', userId };
    await this.append(artifactId, [{ type: 'ArtifactDeletionRequested', data: { requestId, by } }], by);
    return this.append(
      artifactId,
      [{ type: 'ArtifactDeleted', data: { by, confirmation: { kind: 'request', requestId, confirmedBy: userId } } }],
      by,
    );
  }
}

/**
 * Records that a task's tool call read (or wrote) a version, the way the runtime records any
 * call: a turn of the task (TurnStarted) and the call's ToolCallCompleted whose result carries
 * `artifact: {artifactId, version}` (the workspace tools' convention). No task-stream event.
 */
export class ToolCallRecorder {
  private readonly turns = new Map<string, { turnId: string; revision: number; calls: number }>();

  constructor(
    private readonly store: EventStore,
    readonly workspaceId: string,
  ) {}

  async read(taskId: string, artifactId: string, version: number, tool = 'document.read'): Promise<string> {
    const metadata = {
      correlationId: `test-${taskId}`,
      causationId: null,
      workspaceId: this.workspaceId,
      actor: { kind: 'agent' } as Actor,
    };
    let turn = this.turns.get(taskId);
    const events: NewEvent[] = [];
    if (turn === undefined) {
      turn = { turnId: randomUUID(), revision: -1, calls: 0 };
      this.turns.set(taskId, turn);
      events.push({
        eventId: randomUUID(),
        type: 'TurnStarted',
        data: { turnId: turn.turnId, taskId, reason: 'message' },
        metadata,
      });
    }
    const callId = `${turn.turnId}:1:${turn.calls}`;
    turn.calls += 1;
    events.push({
      eventId: randomUUID(),
      type: 'ToolCallCompleted',
      data: { callId, status: 'ok', result: { tool, artifact: { artifactId, version }, text: '…' } },
      metadata,
    });
    const result = await this.store.append(
      streams.turn(turn.turnId),
      events,
      turn.revision === -1 ? 'no_stream' : turn.revision,
    );
    turn.revision = result.nextExpectedRevision;
    return turn.turnId;
  }
}
