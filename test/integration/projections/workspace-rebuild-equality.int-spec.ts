import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@lomo/contracts';
import { ownershipViolations, asKnownEvent, evolveDocument, type ProjectionDocument } from '@lomo/read-models';
import {
  noticeDocumentId,
  taskArtifactDocumentId,
  workspaceProjections,
  WORKSPACE_ARTIFACTS,
  WORKSPACE_NOTICES,
  WORKSPACE_TASK_ARTIFACTS,
  WORKSPACE_ARTIFACT_VERSIONS,
} from '@lomo/workspace';
import {
  ArtifactEventWriter,
  ToolCallRecorder,
  WorkspaceTestProjector,
  createTask,
  decideOnTask,
} from '@lomo/workspace/testing';
import {
  cleanRebuild,
  LiveInstance,
  memoryDocuments,
  openEventStore,
  physicalOf,
  snapshotOf,
  type EventStoreFixture,
  type Snapshot,
} from './support/projection-harness';
import { batches, interleave, redeliveryArbitrary } from './support/redelivery';

const WS = 'ws1';
const person = { kind: 'person' as const, userId: 'u1' };

/**
 * A workspace scenario written as the apps would: two tasks read a document and a flow through
 * recorded tool calls, the person edits both, one task writes the document itself, the fan-out
 * appends (and widens) notices, a step consumes one, a reference, and a confirmed deletion.
 */
async function writeWorkspaceScenario(fixture: EventStoreFixture) {
  const events = fixture.events;
  const artifacts = new ArtifactEventWriter(events, WS);
  const calls = new ToolCallRecorder(events, WS);
  const projector = new WorkspaceTestProjector(events);
  const taskA = await createTask(events, WS, 'Storyboard A');
  const taskB = await createTask(events, WS, 'Storyboard B');
  const doc = await artifacts.createDocument({
    by: { kind: 'agent', taskId: taskA, callId: `${randomUUID()}:1:0` },
    taskId: taskA,
  });
  const flow = await artifacts.createFlow({ nodeIds: ['A', 'B', 'C'], by: person });
  await artifacts.reference(flow, taskB, person);
  await calls.read(taskA, doc, 1);
  await calls.read(taskB, doc, 1);
  await calls.read(taskB, flow, 1, 'flow.read');
  await projector.catchUp();
  await artifacts.editDocument(doc, person);
  await projector.catchUp();
  await artifacts.editFlowNodes(flow, ['A'], person);
  await artifacts.editFlowNodes(flow, ['B', 'C'], person);
  await artifacts.addFlowNode(flow, 'D', person);
  await projector.catchUp();
  // Task A writes v3 itself: it gets no notice of its own write; B's open notice widens.
  await artifacts.editDocument(doc, { kind: 'agent', taskId: taskA, callId: `${randomUUID()}:2:0` }, 'agent rewrite');
  await projector.catchUp();
  const turn = randomUUID();
  await decideOnTask(events, WS, taskB, [
    { type: 'OpenTurn', turnId: turn, reason: 'message' },
    { type: 'ClaimInboxItems', turnId: turn, step: 1 },
  ]);
  await artifacts.deleteConfirmed(doc, 'u1');
  await projector.catchUp();
  await projector.close();
  return { taskA, taskB, doc, flow, turn };
}

describe('workspace read model: rebuild equals live (same equality harness as the other projections)', () => {
  let fixture: EventStoreFixture;
  let log: EventEnvelope[];
  let rebuilt: Snapshot;
  let ids: Awaited<ReturnType<typeof writeWorkspaceScenario>>;

  beforeAll(async () => {
    fixture = openEventStore();
    ids = await writeWorkspaceScenario(fixture);
    log = await fixture.events.readAll();
    const clean = await cleanRebuild(fixture.events, workspaceProjections);
    rebuilt = clean.snapshot;
    await clean.documents.close();
  });

  afterAll(() => fixture.dispose());

  it('a clean rebuild holds the scenario’s artefacts, versions, references, readers and notices', () => {
    const artifacts = rebuilt[WORKSPACE_ARTIFACTS];
    expect(artifacts[ids.doc]).toMatchObject({
      kind: 'document',
      version: 3,
      deleted: true,
      listed: false,
      taskIds: [ids.taskA],
    });
    expect(artifacts[ids.flow]).toMatchObject({
      kind: 'flow',
      version: 4,
      deleted: false,
      listed: true,
      taskIds: [ids.taskB],
      flow: {
        structureVersion: 4,
        edgeCount: 3,
        nodes: [
          { nodeId: 'A', version: 2 },
          { nodeId: 'B', version: 2 },
          { nodeId: 'C', version: 2 },
          { nodeId: 'D', version: 1 },
        ],
      },
    });
    expect(Object.keys(rebuilt[WORKSPACE_ARTIFACT_VERSIONS])).toHaveLength(3 + 4);
    const readers = rebuilt[WORKSPACE_TASK_ARTIFACTS];
    expect(readers[taskArtifactDocumentId(ids.taskA, ids.doc)]).toMatchObject({
      referenced: true,
      wroteVersion: 3,
      lastSeenVersion: 3,
    });
    expect(readers[taskArtifactDocumentId(ids.taskB, ids.doc)]).toMatchObject({
      referenced: false,
      lastSeenVersion: 1,
    });
    expect(readers[taskArtifactDocumentId(ids.taskB, ids.flow)]).toMatchObject({
      referenced: true,
      lastSeenVersion: 1,
    });
    const notices = Object.values(rebuilt[WORKSPACE_NOTICES]) as Array<ProjectionDocument & Record<string, unknown>>;
    // A: one notice of the person's v2 (consumed by nobody: A never ran a step). B: one for the
    // document (v1→v2, widened to v3 by A's write) and one for the flow (v1→v4), both consumed.
    expect(
      notices
        .map((n) => [
          n.taskId === ids.taskA ? 'A' : 'B',
          n.artifactId === ids.doc ? 'doc' : 'flow',
          n.fromVersion,
          n.toVersion,
          n.open,
        ])
        .sort(),
    ).toEqual([
      ['A', 'doc', 1, 2, true],
      ['B', 'doc', 1, 3, false],
      ['B', 'flow', 1, 4, false],
    ]);
    expect(notices.find((n) => n.artifactId === ids.flow)).toMatchObject({
      nodes: ['A', 'B', 'C', 'D'],
      consumedBy: { turnId: ids.turn, step: 1 },
    });
    expect(
      rebuilt[WORKSPACE_NOTICES][
        noticeDocumentId(ids.taskA, notices.find((n) => n.taskId === ids.taskA)!.noticeId as string)
      ],
    ).toBeDefined();
  });

  it('every field an event changes belongs to that event’s stream (field ownership)', () => {
    for (const definition of workspaceProjections) {
      const docs = new Map<string, ProjectionDocument>();
      for (const envelope of log) {
        const event = asKnownEvent(envelope);
        if (event === undefined || !definition.categories.some((c) => envelope.metadata.streamId.startsWith(`${c}-`)))
          continue;
        if (!definition.handles.includes(event.type)) continue;
        const found = definition.documentIds(event, {
          knownTaskOfTurn: () => taskOfTurn(envelope),
          taskOfTurn: async () => taskOfTurn(envelope),
        });
        for (const id of found as readonly string[]) {
          const before = docs.get(id);
          const after = evolveDocument(definition, before, id, event);
          expect(ownershipViolations(definition, before, after, event)).toEqual([]);
          docs.set(id, after);
        }
      }
    }
  });

  it('events redelivered one to three times, streams interleaved at random (per-stream order kept), give documents deep-equal to the clean rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(redeliveryArbitrary(log.length), async (plan) => {
        const documents = memoryDocuments();
        try {
          const live = new LiveInstance(documents, fixture.events, undefined, workspaceProjections);
          for (const batch of batches(interleave(log, plan), plan.batchSizes)) await live.deliver(batch);
          expect(await snapshotOf(documents, physicalOf(workspaceProjections))).toEqual(rebuilt);
        } finally {
          await documents.close();
        }
      }),
      { numRuns: 20 },
    );
  });

  /** The task of a turn event, from the log's TurnStarted (what TurnTaskLookup reads). */
  function taskOfTurn(envelope: EventEnvelope): string | undefined {
    const started = log.find((e) => e.type === 'TurnStarted' && e.metadata.streamId === envelope.metadata.streamId);
    return (started?.data as { taskId?: string } | undefined)?.taskId;
  }
});
