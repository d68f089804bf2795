import { join } from 'node:path';
import { SqliteBlobStore } from '@lomo/blobs';
import { streams, WAKE_UP_TOPIC, type EventEnvelope, type TestControl } from '@lomo/contracts';
import { SqliteDocumentStore } from '@lomo/read-models';
import { RuntimeHarness } from '@lomo/runtime/testing';
import type { ToolDefinition } from '@lomo/tools';
import { ArtifactCommandService, DocumentTextStore } from '@lomo/workspace';
import type { SimulatedUpstreamControl } from '../simulated';
import {
  GenerationOrders,
  GenerationService,
  type GenerationHooks,
  type GenerationRequests,
  type GenerationTimings,
} from '../service';
import { createMediaTools } from '../tools';
import { createInProcessSimulatedProvider, type InProcessSimulatedProvider } from './in-process-simulated-provider';

export interface GenerationHarnessOptions {
  label: string;
  /** The simulated upstream's start configuration (latency, ticks, faults, prices). */
  upstream?: SimulatedUpstreamControl;
  timings?: Partial<GenerationTimings>;
  hooks?: GenerationHooks;
  /**
   * Deliver the upstream's callbacks to the service as they are produced (default), or keep them
   * in `sim.deliveries` for the test to deliver (or not) itself.
   */
  autoDeliver?: boolean;
  extraTools?: ToolDefinition[];
  /** The drills' mutation switches (libs/platform/src/test-control/README.md); absent: all off. */
  testControl?: Pick<TestControl, 'mutation'>;
}

/**
 * The runtime harness (SQLite store and bus, manual clock) plus the generation stack as the
 * embedded app wires it: media tools ordering jobs, the generation service on the in-process
 * simulated upstream, the artefact service and the SQLite document store for its indexes.
 * Orders advance at once here (the app's bus consumer does it there).
 */
export class GenerationHarness {
  /** The service the callbacks go to; `restart` replaces it, as a new process would. */
  service: GenerationService;
  readonly orders: GenerationOrders;
  readonly errors: Array<{ error: unknown; context: Record<string, unknown> }> = [];
  readonly documents: SqliteDocumentStore;
  readonly artifacts: ArtifactCommandService;
  private readonly textBlobs: SqliteBlobStore;
  private readonly pendingDeliveries = new Set<Promise<unknown>>();
  private readonly services: GenerationService[] = [];
  private readonly abandoned = new Set<GenerationService>();
  readonly callbackResults: Array<{ ok: boolean; code?: string }> = [];
  /** Every job ordered through the media tools (what the read model's activeJobs would list). */
  readonly orderedJobs = new Set<string>();

  private constructor(
    readonly runtime: RuntimeHarness,
    readonly sim: InProcessSimulatedProvider,
    private readonly options: GenerationHarnessOptions,
  ) {
    const dir = runtime.dir;
    this.documents = new SqliteDocumentStore({ filename: join(dir, 'read.sqlite') });
    this.textBlobs = new SqliteBlobStore({ filename: join(dir, 'events.sqlite'), synchronous: 'NORMAL' });
    this.artifacts = new ArtifactCommandService({
      store: runtime.store,
      texts: new DocumentTextStore(this.textBlobs),
      media: runtime.blobs,
      ids: runtime.ids,
    });
    this.service = this.openService({ timings: options.timings, hooks: options.hooks });
    this.orders = this.service.orders;
  }

  /**
   * Another generation service on the same stores (a second process, or the same one restarted):
   * its own queues, timers and counters. Not started; `activeJobs` lists the ordered jobs that
   * have not ended.
   */
  openService(
    options: {
      timings?: Partial<GenerationTimings>;
      hooks?: GenerationHooks;
      /** A store connection of its own (another connection to the same file), as a second process has. */
      ownStore?: boolean;
    } = {},
  ): GenerationService {
    const runtime = this.runtime;
    const service = new GenerationService({
      store: options.ownStore ? runtime.openStore() : runtime.store,
      documents: this.documents,
      blobs: runtime.blobs,
      artifacts: this.artifacts,
      bus: runtime.bus,
      providers: [this.sim.provider],
      clock: runtime.clock,
      ids: runtime.ids,
      timer: runtime.clock,
      random: () => 0.5,
      timings: options.timings ?? this.options.timings,
      hooks: options.hooks,
      activeJobs: () => this.unfinishedJobs(),
      onError: (error, context) => this.errors.push({ error, context }),
      ...(this.options.testControl !== undefined ? { testControl: this.options.testControl } : {}),
    });
    this.services.push(service);
    return service;
  }

  /**
   * The current service dies where it stands (timers cancelled, work in flight abandoned, as a
   * SIGKILL leaves it) and a new one takes over and starts, sweeping the unfinished jobs.
   */
  async restart(options: { timings?: Partial<GenerationTimings>; hooks?: GenerationHooks } = {}): Promise<void> {
    const dead = this.service;
    void dead.stop(); // not awaited: a hung step of the dead one never ends
    this.abandoned.add(dead);
    this.service = this.openService(options);
    await this.service.start();
  }

  private async unfinishedJobs(): Promise<string[]> {
    const open: string[] = [];
    for (const jobId of this.orderedJobs) {
      const types = (await this.read(streams.generation(jobId))).map((e) => e.type);
      if (!types.includes('GenerationCompleted') && !types.includes('GenerationFailed')) open.push(jobId);
    }
    return open;
  }

  static async open(options: GenerationHarnessOptions): Promise<GenerationHarness> {
    const holder: { harness?: GenerationHarness } = {};
    const requests: GenerationRequests = {
      request: async (input) => {
        const view = await holder.harness!.orders.request(input);
        holder.harness!.orderedJobs.add(view.jobId);
        holder.harness!.service.kick(view.jobId);
        return view;
      },
      status: (workspaceId, ref) => holder.harness!.orders.status(workspaceId, ref),
      quotePlan: (work, workspaceId) => holder.harness!.orders.quotePlan(work, workspaceId),
      prepare: (workspaceId) => holder.harness!.orders.prepare(workspaceId),
    };
    const runtime = await RuntimeHarness.open({
      label: options.label,
      tools: () => [...createMediaTools(requests), ...(options.extraTools ?? [])],
      planQuoter: () => requests,
    });
    const sim = createInProcessSimulatedProvider({
      clock: runtime.clock,
      start: options.upstream,
      onDelivery: (delivery) => {
        if (options.autoDeliver === false) return;
        holder.harness!.deliver(delivery);
      },
    });
    const harness = new GenerationHarness(runtime, sim, options);
    holder.harness = harness;
    await runtime.bus.ensureTopics([{ name: WAKE_UP_TOPIC, partitions: 2 }]);
    await harness.service.start();
    return harness;
  }

  /** Hands one signed callback to the service, as the callback route does. */
  deliver(delivery: { headers: Record<string, string>; body: string }): Promise<void> {
    const work = this.service
      .receiveCallback('simulated', delivery.headers, Buffer.from(delivery.body))
      .then(
        () => this.callbackResults.push({ ok: true }),
        (error: { code?: string }) => this.callbackResults.push({ ok: false, code: error.code }),
      )
      .then(() => undefined);
    this.pendingDeliveries.add(work);
    void work.finally(() => this.pendingDeliveries.delete(work));
    return work;
  }

  /** Moves the clock, lets the upstream tick, and waits until callbacks and job work settle. */
  async advance(ms: number): Promise<void> {
    this.runtime.clock.advance(ms);
    this.sim.upstream.step();
    await this.settle();
  }

  /**
   * Waits until callbacks and job work are done, or until nothing more is appended while work
   * sleeps on the manual clock (a backoff before a retried submit): the next `advance` wakes it.
   */
  async settle(): Promise<void> {
    let lastHead: string | undefined;
    for (let round = 0; round < 400; round += 1) {
      const live = this.services.filter((service) => !this.abandoned.has(service));
      const idle = Promise.all([...this.pendingDeliveries, ...live.map((service) => service.idle())]).then(() => true);
      const done = await Promise.race([idle, new Promise<false>((r) => setTimeout(() => r(false), 25))]);
      if (done && this.pendingDeliveries.size === 0) return;
      const head = JSON.stringify((await this.runtime.store.headPosition()) ?? null);
      if (!done && head === lastHead) return;
      lastHead = head;
    }
  }

  read(streamId: string): Promise<EventEnvelope[]> {
    return this.runtime.store.readStream(streamId);
  }

  accountEvents(workspaceId: string): Promise<EventEnvelope[]> {
    return this.read(streams.account(workspaceId));
  }

  async close(): Promise<void> {
    for (const service of this.services) if (!this.abandoned.has(service)) await service.stop();
    await this.runtime.close().catch(() => undefined);
    await this.documents.close();
    this.textBlobs.close();
  }
}
