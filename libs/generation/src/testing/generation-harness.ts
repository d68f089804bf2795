import { join } from 'node:path';
import { SqliteBlobStore } from '@lomo/blobs';
import { streams, WAKE_UP_TOPIC, type EventEnvelope } from '@lomo/contracts';
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
}

/**
 * The runtime harness (SQLite store and bus, manual clock) plus the generation stack as the
 * embedded app wires it: media tools ordering jobs, the generation service on the in-process
 * simulated upstream, the artefact service and the SQLite document store for its indexes.
 * Orders advance at once here (the app's bus consumer does it there).
 */
export class GenerationHarness {
  readonly service: GenerationService;
  readonly orders: GenerationOrders;
  readonly errors: Array<{ error: unknown; context: Record<string, unknown> }> = [];
  readonly documents: SqliteDocumentStore;
  readonly artifacts: ArtifactCommandService;
  private readonly textBlobs: SqliteBlobStore;
  private readonly pendingDeliveries = new Set<Promise<unknown>>();
  readonly callbackResults: Array<{ ok: boolean; code?: string }> = [];

  private constructor(
    readonly runtime: RuntimeHarness,
    readonly sim: InProcessSimulatedProvider,
    options: GenerationHarnessOptions,
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
    this.service = new GenerationService({
      store: runtime.store,
      documents: this.documents,
      blobs: runtime.blobs,
      artifacts: this.artifacts,
      bus: runtime.bus,
      providers: [sim.provider],
      clock: runtime.clock,
      ids: runtime.ids,
      timer: runtime.clock,
      random: () => 0.5,
      timings: options.timings,
      hooks: options.hooks,
      onError: (error, context) => this.errors.push({ error, context }),
    });
    this.orders = this.service.orders;
  }

  static async open(options: GenerationHarnessOptions): Promise<GenerationHarness> {
    const holder: { harness?: GenerationHarness } = {};
    const requests: GenerationRequests = {
      request: async (input) => {
        const view = await holder.harness!.orders.request(input);
        holder.harness!.service.kick(view.jobId);
        return view;
      },
      status: (workspaceId, ref) => holder.harness!.orders.status(workspaceId, ref),
    };
    const runtime = await RuntimeHarness.open({
      label: options.label,
      tools: () => [...createMediaTools(requests), ...(options.extraTools ?? [])],
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

  async settle(): Promise<void> {
    for (let i = 0; i < 20; i += 1) {
      await Promise.allSettled([...this.pendingDeliveries]);
      await this.service.idle();
      if (this.pendingDeliveries.size === 0) return;
    }
  }

  read(streamId: string): Promise<EventEnvelope[]> {
    return this.runtime.store.readStream(streamId);
  }

  accountEvents(workspaceId: string): Promise<EventEnvelope[]> {
    return this.read(streams.account(workspaceId));
  }

  async close(): Promise<void> {
    await this.service.stop();
    await this.runtime.close().catch(() => undefined);
    await this.documents.close();
    this.textBlobs.close();
  }
}
