import type { EventBus } from '@lomo/bus';
import { ActiveWorkIndex } from './active-work/active-work-index';
import { RuntimeMetrics } from './metrics/runtime-metrics';
import type { RuntimeDeps } from './worker/runtime-deps';
import { reclaimOwnTurns } from './worker/reclaim-own-turns';
import { TaskWorker } from './worker/task-worker';
import { WakeUpConsumer, type WakeUpConsumerOptions } from './wakeups/wake-up-consumer';
import { Watchdog } from './watchdog/watchdog';
import type { Metrics } from '@lomo/observability';

export type ExecutorRuntimeDeps = Omit<RuntimeDeps, 'metrics' | 'bus'> & { bus: EventBus; registry: Metrics };

/**
 * One executor process's runtime: the worker that runs turns, the active-work index and its
 * watchdog, and the wake-up consumer. Start order makes the index current before the first scan
 * and takes back the turns this worker id held before a restart; stop order takes no new work,
 * then releases held leases.
 */
export class ExecutorRuntime {
  readonly worker: TaskWorker;
  readonly index: ActiveWorkIndex;
  readonly watchdog: Watchdog;
  readonly consumer: WakeUpConsumer;
  readonly deps: RuntimeDeps;

  constructor(deps: ExecutorRuntimeDeps, bus: Omit<WakeUpConsumerOptions, 'workerId'>) {
    const { registry, ...rest } = deps;
    // The gauge reads the worker at scrape time; the worker needs the metrics first.
    const metrics = new RuntimeMetrics(registry, () => this.worker?.activeTurns ?? 0);
    this.deps = { ...rest, metrics };
    this.worker = new TaskWorker(this.deps);
    this.index = new ActiveWorkIndex(deps.store);
    this.watchdog = new Watchdog(
      this.index,
      (request) => this.worker.wake(request),
      deps.clock,
      { intervalMs: deps.options.watchdogIntervalMs, queuedTooLongMs: deps.options.queuedTooLongMs },
      metrics,
      deps.logger.child({ component: 'watchdog' }),
      deps.scheduler,
    );
    this.consumer = new WakeUpConsumer(deps.bus, this.worker, deps.logger.child({ component: 'wake-ups' }), {
      ...bus,
      workerId: deps.options.workerId,
    });
  }

  async start(): Promise<void> {
    await this.index.refresh();
    // Before the watchdog and the wake-ups: the turns this worker id held before a restart are
    // taken back now, not after their leases expire (worker/reclaim-own-turns.ts).
    const reclaimed = reclaimOwnTurns(
      this.index,
      this.deps.options.workerId,
      (request) => this.worker.wake(request),
      this.deps.logger,
    );
    this.watchdog.start();
    await this.consumer.start();
    this.deps.logger.info(
      { workerId: this.deps.options.workerId, active: this.index.size, reclaimed },
      'executor runtime started',
    );
  }

  /** SIGTERM: stop scanning and consuming, then release every held lease so another executor takes over now. */
  async stop(): Promise<void> {
    this.watchdog.stop();
    await this.consumer.stop();
    await this.worker.shutdown();
    this.deps.logger.info({ workerId: this.deps.options.workerId }, 'executor runtime stopped');
  }
}
