import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { BlobRef } from '@lomo/blobs';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { NoticeArtifactChange } from '@lomo/domain';
import { ScriptedModelProvider, match } from '@lomo/llm';
import { PromptArchive, publishWakeUp } from '@lomo/runtime';
import { subscribeWakeUps, waitFor } from '@lomo/bus/testing';
import { HARNESS_WORKSPACE, RuntimeHarness } from '@lomo/runtime/testing';
import { defineTool, okResult } from '@lomo/tools';
import { EventStoreTaskNoticeWriter, noticeIdFor, type TaskNoticeWriter } from '@lomo/workspace';
import { ArtifactEventWriter, ToolCallRecorder, WorkspaceTestProjector, createTask } from '@lomo/workspace/testing';

const WS = HARNESS_WORKSPACE;
const person = { kind: 'person' as const, userId: 'u1' };
const ofType = (events: readonly EventEnvelope[], type: string) => events.filter((e) => e.type === type);

/** A writer that dies after `limit` appends, as a projector killed in the middle of a fan-out. */
class DyingWriter implements TaskNoticeWriter {
  appended = 0;
  constructor(
    private readonly inner: TaskNoticeWriter,
    private readonly limit: number,
  ) {}
  async notice(workspaceId: string, taskId: string, command: NoticeArtifactChange): Promise<void> {
    if (this.appended >= this.limit) throw new Error('projector killed mid-fan-out');
    this.appended += 1;
    await this.inner.notice(workspaceId, taskId, command);
  }
}

describe('change notices: coalescing, crash-safe fan-out, no wake-ups, shown in the next step', () => {
  let harness: RuntimeHarness;
  let artifacts: ArtifactEventWriter;
  let calls: ToolCallRecorder;
  beforeEach(async () => {
    harness = await RuntimeHarness.open({
      label: 'notices',
      tools: () => [
        // The workspace tools' convention: a result with a top-level `artifact: {artifactId, version}`.
        defineTool({
          name: 'document.read',
          description: 'Read a document (latest version).',
          domain: 'document',
          sideEffect: 'read',
          idempotent: true,
          input: z.strictObject({ artifactId: z.uuid() }),
          run: async (input) =>
            okResult({
              artifact: { artifactId: input.artifactId, version: artifacts.version(input.artifactId) },
              text: '…',
            }),
        }),
      ],
    });
    artifacts = new ArtifactEventWriter(harness.store, WS);
    calls = new ToolCallRecorder(harness.store, WS);
  });
  afterEach(() => harness.close());

  it('30 quick person edits of one flow while the task waits give that task one open notice spanning them', async () => {
    const taskId = await createTask(harness.store, WS, 'Tune the workflow');
    const flow = await artifacts.createFlow({ nodeIds: ['A', 'B', 'C'], by: person, taskId });
    await calls.read(taskId, flow, 1, 'flow.read');
    const projector = new WorkspaceTestProjector(harness.store);
    await projector.catchUp();
    for (let i = 0; i < 30; i += 1) {
      await artifacts.editFlowNodes(flow, [['A', 'B', 'C'][i % 3]!], person);
      // Live: the projector follows each edit (the worst case for flooding).
      await projector.catchUp();
    }
    const open = await projector.readModel.openNotices(WS, taskId);
    expect(open).toEqual([
      expect.objectContaining({ artifactId: flow, fromVersion: 1, toVersion: 31, nodes: ['A', 'B', 'C'] }),
    ]);
    const task = await harness.read(streams.task(taskId));
    expect(ofType(task, 'ArtifactChangeNoticed')).toHaveLength(1);
    expect(ofType(task, 'ArtifactChangeNoticeWidened')).toHaveLength(29);
    await projector.close();
  });

  it('a fan-out to 100 tasks killed after 40 ends with exactly 100 after restart', async () => {
    const doc = await artifacts.createDocument({ by: person });
    const tasks: string[] = [];
    for (let i = 0; i < 100; i += 1) {
      const taskId = await createTask(harness.store, WS, `Task ${i}`);
      await calls.read(taskId, doc, 1);
      tasks.push(taskId);
    }
    const dying = new DyingWriter(new EventStoreTaskNoticeWriter(harness.store), 40);
    const first = new WorkspaceTestProjector(harness.store, { writer: dying });
    await first.catchUp();
    await artifacts.editDocument(doc, person, '2 snippets, +40 −12 chars');
    await expect(first.catchUp()).rejects.toThrow('projector killed mid-fan-out');
    const noticedSoFar = async () => {
      let n = 0;
      for (const t of tasks) n += ofType(await harness.read(streams.task(t)), 'ArtifactChangeNoticed').length;
      return n;
    };
    expect(await noticedSoFar()).toBe(40);

    // Restart: a fresh projector (nothing in memory) on the same read-model documents.
    const restarted = new WorkspaceTestProjector(harness.store, { documents: first.documents });
    await restarted.catchUp();
    expect(await noticedSoFar()).toBe(100);
    for (const t of tasks) {
      const [noticed] = ofType(await harness.read(streams.task(t)), 'ArtifactChangeNoticed');
      expect(noticed?.data).toMatchObject({
        noticeId: noticeIdFor(t, doc, 2),
        fromVersion: 1,
        toVersion: 2,
        summary: '2 snippets, +40 −12 chars',
      });
      expect(await restarted.readModel.openNotices(WS, t)).toHaveLength(1);
    }
    // Redone once more (a redelivery): still exactly 100.
    await new WorkspaceTestProjector(harness.store, { documents: first.documents }).catchUp();
    expect(await noticedSoFar()).toBe(100);
    await restarted.close();
  });

  it('the notice writer keeps task streams folded: it reads only their tail and decides on what other writers appended meanwhile', async () => {
    const doc = await artifacts.createDocument({ by: person });
    const taskId = await createTask(harness.store, WS, 'Storyboard');
    await calls.read(taskId, doc, 1);
    const reads: Array<number | string | undefined> = [];
    const spied = Object.create(harness.store) as typeof harness.store;
    spied.readStream = (streamId, options) => {
      if (streamId === streams.task(taskId)) reads.push(options?.fromRevision);
      return harness.store.readStream(streamId, options);
    };
    const cached = new EventStoreTaskNoticeWriter(spied);
    const other = new EventStoreTaskNoticeWriter(harness.store); // another projector instance
    const notice = (toVersion: number): NoticeArtifactChange => ({
      type: 'NoticeArtifactChange',
      noticeId: noticeIdFor(taskId, doc, toVersion),
      artifactId: doc,
      fromVersion: 1,
      toVersion,
      by: person,
      nodes: [],
      summary: `edit to v${toVersion}`,
    });
    await cached.notice(WS, taskId, notice(2));
    await other.notice(WS, taskId, notice(3));
    // The cached fold is one event behind: it folds the other writer's widening, so v3 is a repeat.
    await cached.notice(WS, taskId, notice(3));
    await cached.notice(WS, taskId, notice(4));
    const task = await harness.read(streams.task(taskId));
    expect(ofType(task, 'ArtifactChangeNoticed')).toHaveLength(1);
    expect(ofType(task, 'ArtifactChangeNoticeWidened').map((e) => e.data)).toEqual([
      expect.objectContaining({ toVersion: 3 }),
      expect.objectContaining({ toVersion: 4 }),
    ]);
    // The first notice read the whole stream (from 0); later ones only what came after the fold.
    expect(reads[0]).toBe(0);
    expect(reads.slice(1).every((from) => typeof from === 'number' && from > 0)).toBe(true);
  });

  it('a notice wakes no worker', async () => {
    const model = new ScriptedModelProvider();
    const { runtime } = harness.executor('executor-a', model);
    await runtime.start();
    const probe = await subscribeWakeUps(harness.bus);
    const wakeUps = () => probe.messages.map((m) => m.key);
    const taskId = await createTask(harness.store, WS, 'Storyboard');
    const doc = await artifacts.createDocument({ by: person, taskId });
    await calls.read(taskId, doc, 1);
    const projector = new WorkspaceTestProjector(harness.store);
    await projector.catchUp();
    await artifacts.editDocument(doc, person);
    await projector.catchUp();
    expect(await projector.readModel.openNotices(WS, taskId)).toHaveLength(1);
    // Long enough for the in-process bus (20 ms polls) and the executor to react if anything woke it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(wakeUps()).toEqual([]);
    expect(ofType(await harness.read(streams.task(taskId)), 'TurnOpened')).toEqual([]);
    expect(model.neverCalled).toBe(true);
    // The probe does see wake-ups (a control: one for a task that does not exist, ignored by the executor).
    const control = randomUUID();
    await publishWakeUp(harness.bus, { kind: 'wake', workspaceId: WS, taskId: control, reason: 'message' });
    await waitFor(() => wakeUps().includes(control), 'the control wake-up', 5_000);
    expect(wakeUps()).toEqual([control]);
    await probe.stop();
    await projector.close();
  });

  it('the next step’s stored prompt shows the notice', async () => {
    const { taskId } = await harness.createTask('Write the storyboard');
    const doc = await artifacts.createDocument({ by: person, taskId, title: 'Storyboard' });
    const model = new ScriptedModelProvider([
      {
        label: 'read',
        reply: { text: 'Reading it.', toolCalls: [{ name: 'document.read', arguments: { artifactId: doc } }] },
      },
      {
        label: 'done',
        expect: match.where('has a tool result', (r) => r.messages.some((m) => m.role === 'tool')),
        reply: { text: 'Read v1.' },
      },
    ]);
    const { worker } = harness.worker('worker-a', model);
    await worker.wake({ taskId, reason: 'message' });

    const projector = new WorkspaceTestProjector(harness.store);
    await projector.catchUp();
    await artifacts.editDocument(doc, person, '1 snippet, +12 −3 chars');
    await projector.catchUp();
    expect(await projector.readModel.openNotices(WS, taskId)).toEqual([
      expect.objectContaining({ artifactId: doc, fromVersion: 1, toVersion: 2 }),
    ]);

    model.push({
      label: 'after the edit',
      expect: match.where('shows the notice', (r) =>
        r.messages.some((m) => m.content.includes('Workspace changes since you last looked')),
      ),
      reply: { text: 'I see the person changed it.' },
    });
    await harness.deliver(taskId, 'Go on');
    await worker.wake({ taskId, reason: 'message' });

    const task = await harness.read(streams.task(taskId));
    const [secondTurn] = ofType(task, 'TurnOpened')
      .map((e) => (e.data as { turnId: string }).turnId)
      .slice(1);
    const consumed = ofType(task, 'ArtifactChangeNoticesConsumed');
    expect(consumed.map((e) => e.data)).toEqual([
      { turnId: secondTurn, step: 1, noticeIds: [noticeIdFor(taskId, doc, 2)] },
    ]);
    const [step] = ofType(await harness.read(streams.turn(secondTurn!)), 'ModelStepCommitted').map(
      (e) => e.data as { promptRef: BlobRef },
    );
    const prompt = await new PromptArchive(harness.blobs).load(step!.promptRef);
    const shown = prompt?.messages.find((m) => m.content.includes('Workspace changes since you last looked'));
    expect(shown?.content).toContain(`- artifact ${doc} v1→v2 (1 snippet, +12 −3 chars; by the person u1)`);
    await projector.catchUp();
    expect(await projector.readModel.openNotices(WS, taskId)).toEqual([]);
    model.assertAllConsumed();
    await projector.close();
  });
});
