import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilesystemBlobStore } from '@lomo/blobs';
import { InProcessEventBus } from '@lomo/bus';
import { WAKE_UP_TOPIC, type Actor, type EventEnvelope, type IdGenerator, type NewEvent } from '@lomo/contracts';
import { taskDecider, type TaskCommand } from '@lomo/domain';
import { SqliteEventStore, type EventStore, type SynchronousMode } from '@lomo/eventstore';
import type { ModelProvider } from '@lomo/llm';
import { createLogger, Metrics, type Logger } from '@lomo/observability';
import { MemoryLogDestination } from '@lomo/testing';
import {
  createStarterTools,
  ExportJobRunner,
  SqliteExportJobStore,
  SqliteNotesStore,
  ToolRegistry,
  type ToolDefinition,
} from '@lomo/tools';
import { ManualTimer } from '@lomo/tools/testing';
import type { CommandDeps } from '../commands/command-deps';
import { noFaults, type FaultInjector } from '../faults/fault-injector';
import { RuntimeMetrics } from '../metrics/runtime-metrics';
import { resolveRuntimeOptions, type RuntimeOptionsInput } from '../runtime-options';
import type { RuntimeDeps } from '../worker/runtime-deps';
import { TaskWorker } from '../worker/task-worker';
import { ManualScheduler } from './manual-scheduler';
import { TaskView } from '../streams/task-view';
import { WakeUpConsumer } from '../wakeups/wake-up-consumer';
import { ExecutorRuntime } from '../executor-runtime';
import type { PlanQuoter } from '../process/plan-budget';

export const HARNESS_WORKSPACE = 'ws_runtime';
export const HARNESS_USER = 'user_1';
const userActor: Actor = { kind: 'user', userId: HARNESS_USER };

export interface HarnessOptions {
  label: string;
  synchronous?: SynchronousMode;
  /** Extra tools next to the starter set. */
  tools?: (deps: { store: EventStore }) => ToolDefinition[];
  /** Prices plans for budget cards (the generation harness passes its orders); absent: no budget cards. */
  planQuoter?: () => PlanQuoter | undefined;
}

export interface WorkerOptions {
  faults?: FaultInjector;
  runtime?: Partial<RuntimeOptionsInput>;
  /** A store of its own (another connection to the same file), as a separate process would have. */
  ownStore?: boolean;
  /** Decorates the worker's store (e.g. to record what the store refused). */
  wrapStore?: (store: EventStore) => EventStore;
  /** Context parts of the worker's own (a profile that changes version, a tokenizer, a summarizer). */
  context?: Pick<RuntimeDeps, 'profile' | 'tokenizer' | 'summarizer' | 'recall' | 'recallTimeoutMs'>;
}

/** One worker of a harness, with the parts a test looks at. */
export interface HarnessWorker {
  worker: TaskWorker;
  deps: RuntimeDeps;
  registry: Metrics;
  scheduler: ManualScheduler;
  store: EventStore;
}

/**
 * Everything a runtime test stands on, on real embedded adapters in a temp directory: the SQLite
 * event store and bus, filesystem blobs, the starter tools on SQLite, and a manual clock that is
 * also the export runner's timer. Workers are added one by one, each with its own fault points,
 * scheduler and metrics registry.
 */
export class RuntimeHarness {
  readonly clock = new ManualTimer();
  readonly ids: IdGenerator = { uuid: () => randomUUID() };
  readonly logs = new MemoryLogDestination();
  readonly logger: Logger;
  readonly store: SqliteEventStore;
  readonly bus: InProcessEventBus;
  readonly blobs: FilesystemBlobStore;
  readonly notes: SqliteNotesStore;
  readonly exportJobs: SqliteExportJobStore;
  readonly exports: ExportJobRunner;
  readonly tools: ToolRegistry;
  private readonly opened: Array<{ close(): Promise<void> | void }> = [];

  private constructor(
    readonly dir: string,
    private readonly options: HarnessOptions,
  ) {
    this.logger = createLogger({ level: 'debug', destination: this.logs, name: options.label });
    this.store = this.openStore();
    this.bus = InProcessEventBus.open({ filename: join(dir, 'bus.sqlite'), synchronous: 'NORMAL', pollIntervalMs: 20 });
    this.blobs = new FilesystemBlobStore(join(dir, 'blobs'));
    this.notes = SqliteNotesStore.open({ filename: join(dir, 'tools.sqlite'), synchronous: 'NORMAL' });
    this.exportJobs = SqliteExportJobStore.open({ filename: join(dir, 'tools.sqlite'), synchronous: 'NORMAL' });
    this.exports = new ExportJobRunner({
      jobs: this.exportJobs,
      events: this.store,
      blobs: this.blobs,
      bus: this.bus,
      clock: this.clock,
      timer: this.clock,
      durationMs: 60_000,
    });
    this.tools = new ToolRegistry([
      ...createStarterTools({ notes: this.notes, history: this.store, exports: this.exports }),
      ...(options.tools?.({ store: this.store }) ?? []),
    ]);
  }

  static async open(options: HarnessOptions): Promise<RuntimeHarness> {
    const harness = new RuntimeHarness(mkdtempSync(join(tmpdir(), `lomo-${options.label}-`)), options);
    await harness.bus.ensureTopics([{ name: WAKE_UP_TOPIC, partitions: 2 }]);
    await harness.exports.start();
    return harness;
  }

  openStore(): SqliteEventStore {
    const store = new SqliteEventStore({
      filename: join(this.dir, 'events.sqlite'),
      synchronous: this.options.synchronous ?? 'NORMAL',
      pollIntervalMs: 10,
      now: () => this.clock.now(),
    });
    this.opened.push(store);
    return store;
  }

  worker(workerId: string, model: ModelProvider, options: WorkerOptions = {}): HarnessWorker {
    const registry = new Metrics({ defaultMetrics: false });
    const scheduler = new ManualScheduler();
    const own = options.ownStore === false ? this.store : this.openStore();
    const store = options.wrapStore?.(own) ?? own;
    const holder: { worker?: TaskWorker } = {};
    const deps: RuntimeDeps = {
      store,
      bus: this.bus,
      blobs: this.blobs,
      model,
      tools: this.tools,
      clock: this.clock,
      ids: this.ids,
      logger: this.logger.child({ workerId }),
      metrics: new RuntimeMetrics(registry, () => holder.worker?.activeTurns ?? 0),
      scheduler,
      faults: options.faults ?? noFaults,
      // Tests written before tool domains call any tool: every domain is visible unless a test asks otherwise.
      options: resolveRuntimeOptions({ workerId, toolDomains: 'all', ...options.runtime }),
      ...this.quoter(),
      ...options.context,
    };
    const worker = new TaskWorker(deps);
    holder.worker = worker;
    return { worker, deps, registry, scheduler, store };
  }

  /**
   * A whole executor runtime (worker, active-work index, watchdog, wake-up consumer) on its own
   * store and bus connections, as an executor process has; not started. Its scheduler is manual,
   * so neither the watchdog nor lease renewals run unless the test fires them.
   */
  executor(
    workerId: string,
    model: ModelProvider,
    options: WorkerOptions = {},
  ): { runtime: ExecutorRuntime; registry: Metrics; scheduler: ManualScheduler } {
    const registry = new Metrics({ defaultMetrics: false });
    const scheduler = new ManualScheduler();
    const own = this.openStore();
    const runtime = new ExecutorRuntime(
      {
        store: options.wrapStore?.(own) ?? own,
        bus: this.openBus(),
        blobs: this.blobs,
        model,
        tools: this.tools,
        clock: this.clock,
        ids: this.ids,
        logger: this.logger.child({ workerId }),
        registry,
        scheduler,
        faults: options.faults ?? noFaults,
        options: resolveRuntimeOptions({ workerId, toolDomains: 'all', ...options.runtime }),
        ...this.quoter(),
      },
      { partitions: 2, maxAttempts: 3 },
    );
    this.opened.unshift({ close: () => runtime.stop() });
    return { runtime, registry, scheduler };
  }

  private quoter(): { planQuoter?: PlanQuoter } {
    const planQuoter = this.options.planQuoter?.();
    return planQuoter !== undefined ? { planQuoter } : {};
  }

  /** Another connection to the bus file, as a separate process (e.g. an executor apart from the api) has. */
  openBus(): InProcessEventBus {
    const bus = InProcessEventBus.open({
      filename: join(this.dir, 'bus.sqlite'),
      synchronous: 'NORMAL',
      pollIntervalMs: 20,
    });
    this.opened.unshift(bus);
    return bus;
  }

  /** Starts the executor's wake-up consumer for a worker, on a bus connection of its own. */
  async consumeWakeUps(worker: HarnessWorker): Promise<WakeUpConsumer> {
    const consumer = new WakeUpConsumer(this.openBus(), worker.worker, worker.deps.logger, {
      workerId: worker.deps.options.workerId,
      partitions: 2,
      maxAttempts: 3,
    });
    await consumer.start();
    this.opened.unshift({ close: () => consumer.stop() });
    return consumer;
  }

  commandDeps(bus: CommandDeps['bus'] = this.bus): CommandDeps {
    return { store: this.store, bus, ids: this.ids, logger: this.logger };
  }

  /** A persistent (or lightweight) task with its first message delivered, as the router leaves it. */
  async createTask(
    text: string,
    kind: 'persistent' | 'lightweight' = 'persistent',
    /** The sender, as the router records it (whose memory a step may recall); absent as before. */
    from?: string,
  ): Promise<{ taskId: string; itemId: string }> {
    const taskId = randomUUID();
    const itemId = randomUUID();
    await this.decideOnTask(taskId, [
      { type: 'CreateTask', taskId, kind, goal: text, language: 'en', originMessageId: itemId },
      { type: 'DeliverMessage', itemId, text, language: 'en', ...(from !== undefined ? { from } : {}) },
    ]);
    return { taskId, itemId };
  }

  async deliver(taskId: string, text: string, from?: string): Promise<string> {
    const itemId = randomUUID();
    await this.decideOnTask(taskId, [
      { type: 'DeliverMessage', itemId, text, language: 'en', ...(from !== undefined ? { from } : {}) },
    ]);
    return itemId;
  }

  /** Decides commands on the task's current state and appends them at its revision. */
  async decideOnTask(taskId: string, commands: TaskCommand[], actor: Actor = userActor): Promise<void> {
    const view = await TaskView.load(this.store, taskId);
    let state = view.state;
    const events: NewEvent[] = [];
    for (const command of commands) {
      for (const event of taskDecider.decide(command, state)) {
        state = taskDecider.evolve(state, event);
        events.push({
          eventId: randomUUID(),
          type: event.type,
          data: event.data,
          metadata: { correlationId: taskId, causationId: null, workspaceId: HARNESS_WORKSPACE, actor },
        });
      }
    }
    await this.store.append(view.streamId, events, view.revision);
  }

  read(streamId: string): Promise<EventEnvelope[]> {
    return this.store.readStream(streamId);
  }

  async close(): Promise<void> {
    await this.exports.stop();
    await this.bus.close();
    await this.exportJobs.close();
    await this.notes.close();
    for (const closable of this.opened.splice(0)) await closable.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
