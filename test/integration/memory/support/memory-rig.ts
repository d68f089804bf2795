import { join } from 'node:path';
import { streams, type EventEnvelope, type TestControl } from '@lomo/contracts';
import type { Position } from '@lomo/eventstore';
import { memoryDecider, type MemoryCommand, type MemoryEvent, type MemoryState } from '@lomo/domain';
import { ConceptEmbeddingProvider, type CompletionRequest, type CompletionResult, type ModelProvider } from '@lomo/llm';
import {
  IndexedMemoryRecall,
  MemoryIndexCatalog,
  MemoryIndexer,
  MemoryProfileSnapshot,
  MemoryRunner,
  MemoryStreamCache,
  OfflineMemoryExtractor,
  type MemoryExtractor,
} from '@lomo/memory';
import { SqliteSearchIndex } from '@lomo/routing';
import { HARNESS_USER, HARNESS_WORKSPACE, RuntimeHarness, type HarnessWorker } from '@lomo/runtime/testing';

/**
 * A model that answers every step by citing the person's latest message, so a reply that relied on
 * a message carries its words (what a forgetting must keep out of later prompts).
 */
export class CitingModel implements ModelProvider {
  readonly name = 'citing';
  readonly requests: CompletionRequest[] = [];
  complete(request: CompletionRequest): Promise<CompletionResult> {
    this.requests.push(request);
    const last = [...request.messages].reverse().find((m) => m.role === 'user');
    return Promise.resolve({
      text: `Noted: ${last?.content ?? 'nothing new'}`,
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1 },
      finishReason: 'stop',
      model: 'citing',
    });
  }
}

/**
 * Memory on the runtime harness's real parts (SQLite store, filesystem blobs, a SQLite search
 * index file): the runner fed with every new event as the memory consumer would be, the recall and
 * the profile snapshot bound into a worker's steps.
 */
export class MemoryRig {
  readonly catalog = new MemoryIndexCatalog();
  readonly embedder = new ConceptEmbeddingProvider();
  readonly search: SqliteSearchIndex;
  readonly indexer: MemoryIndexer;
  readonly recall: IndexedMemoryRecall;
  readonly profile: MemoryProfileSnapshot;
  readonly runner: MemoryRunner;
  readonly model = new CitingModel();
  readonly worker: HarnessWorker;
  private position: Position | undefined;

  constructor(
    readonly harness: RuntimeHarness,
    extractor: MemoryExtractor = new OfflineMemoryExtractor(),
    /** The drills' mutation switches (libs/platform/src/test-control/README.md); absent: all off. */
    testControl?: Pick<TestControl, 'mutation'>,
  ) {
    this.search = new SqliteSearchIndex({
      database: join(harness.dir, 'memory-search.sqlite'),
      dimensions: this.embedder.dimensions,
      tablePrefix: 'memory',
    });
    const deps = {
      index: this.search,
      embedder: this.embedder,
      blobs: harness.blobs,
      catalog: this.catalog,
      clock: harness.clock,
    };
    this.indexer = new MemoryIndexer(deps);
    this.recall = new IndexedMemoryRecall(deps);
    this.profile = new MemoryProfileSnapshot({ memory: new MemoryStreamCache(harness.store), blobs: harness.blobs });
    this.runner = new MemoryRunner({
      store: harness.store,
      blobs: harness.blobs,
      extractor,
      indexer: this.indexer,
      clock: harness.clock,
      ids: harness.ids,
      logger: harness.logger,
      ...(testControl !== undefined ? { testControl } : {}),
    });
    this.worker = harness.worker('worker-a', this.model, { context: { recall: this.recall, profile: this.profile } });
  }

  readonly user = HARNESS_USER;
  readonly workspace = HARNESS_WORKSPACE;
  get stream() {
    return streams.memory(this.workspace, this.user);
  }

  /** Hands every event appended since the last call to the runner, in store order (the consumer's job). */
  async feed(): Promise<void> {
    for (;;) {
      const events = await this.harness.store.readAll({ fromPosition: this.position ?? 'start', maxCount: 500 });
      if (events.length === 0) return;
      for (const e of events) {
        this.position = e.metadata.globalPosition as Position;
        await this.dispatch(e);
      }
    }
  }

  private async dispatch(e: EventEnvelope): Promise<void> {
    if (e.type === 'MessageDeliveredToInbox') await this.runner.messageDelivered(e);
    else if (e.type === 'ModelStepCommitted') await this.runner.stepCommitted(e);
    else if (e.type === 'ForgettingConfirmed') {
      const [workspaceId, userId] = e.metadata.streamId.slice('memory-'.length).split('.');
      await this.runner.forgettingConfirmed(workspaceId, userId, (e.data as { forgettingId: string }).forgettingId);
    }
  }

  /** The person says something in a task, the worker takes the turn, memory takes its share. */
  async say(taskId: string, text: string): Promise<string> {
    const itemId = await this.harness.deliver(taskId, text, this.user);
    await this.worker.worker.wake({ taskId, reason: 'message' });
    await this.feed();
    return itemId;
  }

  async startTask(text: string): Promise<{ taskId: string; itemId: string }> {
    const created = await this.harness.createTask(text, 'persistent', this.user);
    await this.worker.worker.wake({ taskId: created.taskId, reason: 'message' });
    await this.feed();
    return created;
  }

  async state(): Promise<MemoryState> {
    const events = await this.harness.store.readStream(this.stream);
    let state = memoryDecider.initialState();
    for (const e of events) state = memoryDecider.evolve(state, { type: e.type, data: e.data } as MemoryEvent);
    return state;
  }

  async decide(commands: MemoryCommand[]): Promise<void> {
    await this.runner.decide(this.workspace, this.user, commands);
  }

  async text(hash: string): Promise<string | undefined> {
    return (await this.harness.blobs.get(hash))?.toString('utf8');
  }
}
