import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteBlobStore, type BlobRef } from '@lomo/blobs';
import { subscribeWakeUps } from '@lomo/bus/testing';
import { streams, type EventEnvelope } from '@lomo/contracts';
import type { CompletionRequest, CompletionResult, ModelProvider } from '@lomo/llm';
import { checkpointIdFor, PromptArchive } from '@lomo/runtime';
import { HARNESS_WORKSPACE, RuntimeHarness } from '@lomo/runtime/testing';
import { ArtifactCommandService, createWorkspaceTools, DocumentTextStore } from '@lomo/workspace';
import { WorkspaceTestProjector } from '@lomo/workspace/testing';

// The article's sequence (§9), end to end through the runtime with the real workspace: the agent
// reads storyboard v3; while it drafts, the person saves v4; the agent's v3-based rewrite is
// refused with the current version; it re-reads v4 and resubmits. The task gets exactly one change
// notice, the step after the edit shows it in its stored prompt, and the edit wakes no worker.
// (The person's save goes through the same ArtifactCommands the API's editDocument calls; the
// GraphQL path itself is covered in test/integration/api/shared-workspace-artifacts.int-spec.ts.)

const WS = HARNESS_WORKSPACE;
const person = { kind: 'person' as const, userId: 'u1' };
const ofType = (events: readonly EventEnvelope[], type: string) => events.filter((e) => e.type === type);

type Step = (request: CompletionRequest) => Promise<{ text: string; call?: { name: string; arguments: object } }>;

/** A model whose steps are functions of the prompt, so one can act (the person saving) mid-step. */
class StepModel implements ModelProvider {
  readonly name = 'article-sequence';
  readonly requests: CompletionRequest[] = [];
  constructor(private readonly steps: Step[]) {}
  async complete(request: CompletionRequest): Promise<CompletionResult> {
    this.requests.push(request);
    const step = this.steps.shift();
    if (!step) throw new Error('the model was asked for more steps than scripted');
    const { text, call } = await step(request);
    return {
      text,
      toolCalls: call
        ? [{ id: `c${this.requests.length}`, name: call.name, arguments: JSON.stringify(call.arguments) }]
        : [],
      usage: { inputTokens: 10, outputTokens: 10 },
      finishReason: call ? 'tool_calls' : 'stop',
      model: this.name,
    };
  }
  get remaining(): number {
    return this.steps.length;
  }
}

const lastToolResult = (request: CompletionRequest): Record<string, unknown> => {
  const tool = [...request.messages].reverse().find((m) => m.role === 'tool');
  if (!tool) throw new Error('no tool result in the prompt');
  // The runtime renders a tool result as {ok, result} or {ok, error} (render-call-outcome.ts).
  const outcome = JSON.parse(tool.content) as { ok?: boolean; result?: Record<string, unknown> };
  return outcome.result ?? (outcome as Record<string, unknown>);
};

describe("the article's storyboard sequence through the runtime", () => {
  let harness: RuntimeHarness;
  let service: ArtifactCommandService;
  let projector: WorkspaceTestProjector;
  let dir: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lomo-article-'));
    const texts = new SqliteBlobStore({ filename: join(dir, 'texts.sqlite') });
    harness = await RuntimeHarness.open({
      label: 'article',
      tools: ({ store }) => {
        service = new ArtifactCommandService({
          store,
          texts: new DocumentTextStore(texts),
          media: texts,
          ids: { uuid: () => randomUUID() },
        });
        projector = new WorkspaceTestProjector(store);
        return createWorkspaceTools({
          commands: service,
          reader: service,
          readModel: projector.readModel,
          checkpointIdFor,
        });
      },
    });
  });

  afterEach(async () => {
    await projector.close();
    await harness.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('v3 read, the person saves v4, the v3-based rewrite is refused with v4, re-read and resubmitted; one notice, shown in the next prompt, no worker woken', async () => {
    const meta = { workspaceId: WS, correlationId: 'article', actor: { kind: 'user' as const, userId: 'u1' } };
    const { taskId } = await harness.createTask('Storyboard for the lighthouse ad');
    const doc = randomUUID();
    await service.create(
      {
        artifactId: doc,
        kind: 'document',
        title: 'Storyboard',
        by: person,
        taskId,
        content: { type: 'document', text: 'Shot 1: sea.' },
      },
      meta,
    );
    await service.rewriteDocument({ artifactId: doc, baseVersion: 1, text: 'Shot 1: sea at dawn.', by: person }, meta);
    await service.rewriteDocument(
      { artifactId: doc, baseVersion: 2, text: 'Shot 1: sea at dawn.\nShot 2: the lamp.', by: person },
      meta,
    );
    await projector.catchUp();

    // Every wake-up published on the bus from here on (the worker below is driven directly).
    const probe = await subscribeWakeUps(harness.bus);
    const model = new StepModel([
      async () => ({
        text: 'Reading the storyboard.',
        call: { name: 'document.read', arguments: { artifactId: doc } },
      }),
      async (request) => {
        // The agent read v3; while it drafts, the person saves v4 (and the projector follows).
        expect(lastToolResult(request)).toMatchObject({ artifact: { artifactId: doc, version: 3 } });
        await projector.catchUp();
        await service.editDocument(
          { artifactId: doc, baseVersion: 3, edits: [{ old: 'the lamp', new: 'the lamp, warm light' }], by: person },
          meta,
        );
        await projector.catchUp();
        return {
          text: 'Rewriting it.',
          call: {
            name: 'document.write',
            arguments: {
              artifactId: doc,
              baseVersion: 3,
              text: 'Shot 1: sea at dawn.\nShot 2: the lamp.\nShot 3: the keeper.',
            },
          },
        };
      },
      async (request) => ({
        text: `Refused: ${JSON.stringify(lastToolResult(request))}`,
        call: { name: 'document.read', arguments: { artifactId: doc } },
      }),
      async (request) => {
        expect(lastToolResult(request)).toMatchObject({ artifact: { artifactId: doc, version: 4 } });
        return {
          text: 'Adding shot 3 on v4.',
          call: {
            name: 'document.write',
            arguments: {
              artifactId: doc,
              baseVersion: 4,
              text: 'Shot 1: sea at dawn.\nShot 2: the lamp, warm light.\nShot 3: the keeper.',
            },
          },
        };
      },
      async (request) => {
        expect(lastToolResult(request)).toMatchObject({ artifact: { artifactId: doc, version: 5 } });
        return { text: 'Done: shot 3 added on your version.' };
      },
    ]);
    const { worker } = harness.worker('worker-a', model);
    await worker.wake({ taskId, reason: 'message' });
    expect(model.remaining).toBe(0);

    // The v3-based rewrite was refused with the current version; the resubmission applied.
    const refused = model.requests[2]!.messages.filter((m) => m.role === 'tool').at(-1)!.content;
    expect(refused).toContain('ARTIFACT_VERSION_CONFLICT');
    expect(refused).toMatch(/\b4\b/);
    expect(await service.documentText(WS, doc)).toEqual({
      version: 5,
      text: 'Shot 1: sea at dawn.\nShot 2: the lamp, warm light.\nShot 3: the keeper.',
    });

    // Exactly one change notice (v3→v4) for the task, consumed by the step after the edit, whose
    // stored prompt shows it.
    const task = await harness.read(streams.task(taskId));
    const notices = ofType(task, 'ArtifactChangeNoticed');
    expect(notices.map((e) => e.data)).toEqual([
      expect.objectContaining({ artifactId: doc, fromVersion: 3, toVersion: 4 }),
    ]);
    expect(ofType(task, 'ArtifactChangeNoticeWidened')).toEqual([]);
    const [consumed] = ofType(task, 'ArtifactChangeNoticesConsumed').map(
      (e) => e.data as { turnId: string; step: number },
    );
    expect(consumed).toBeDefined();
    const steps = ofType(await harness.read(streams.turn(consumed!.turnId)), 'ModelStepCommitted').map(
      (e) => e.data as { step: number; promptRef: BlobRef },
    );
    const shownIn = steps.find((s) => s.step === consumed!.step)!;
    const prompt = await new PromptArchive(harness.blobs).load(shownIn.promptRef);
    expect(prompt?.messages.some((m) => m.content.includes(`artifact ${doc} v3→v4`))).toBe(true);

    // The edit woke no worker: one turn only, and no wake-up was published for it.
    expect(ofType(task, 'TurnOpened')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 400)); // the in-process bus polls every 20 ms
    expect(probe.messages.map((m) => m.key)).not.toContain(taskId);
    await probe.stop();
  });
});
