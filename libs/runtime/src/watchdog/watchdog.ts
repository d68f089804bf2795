import { performance } from 'node:perf_hooks';
import type { Clock } from '@lomo/contracts';
import type { Logger } from '@lomo/observability';
import type { ActiveWorkIndex } from '../active-work/active-work-index';
import type { Finding } from '../active-work/active-work-model';
import type { RuntimeMetrics } from '../metrics/runtime-metrics';
import type { Scheduler } from '../timing/scheduler';
import type { WakeRequest } from '../worker/task-worker';

export interface WatchdogOptions {
  intervalMs: number;
  queuedTooLongMs: number;
}

/**
 * Every interval: bring the active-work index up to date (only new events), find expired leases,
 * turns queued too long, waits that are over, ended turns not closed or with claims left, and
 * inboxes with no turn; wake each such task. A lost wake-up is therefore found within one scan.
 */
export class Watchdog {
  private cancel: (() => void) | undefined;

  constructor(
    private readonly index: ActiveWorkIndex,
    private readonly wake: (request: WakeRequest) => Promise<void>,
    private readonly clock: Clock,
    private readonly options: WatchdogOptions,
    private readonly metrics: RuntimeMetrics,
    private readonly logger: Logger,
    private readonly scheduler: Scheduler,
  ) {}

  start(): void {
    this.cancel ??= this.scheduler.every('watchdog', this.options.intervalMs, async () => {
      await this.scan().catch((error: unknown) =>
        this.logger.error({ error: error instanceof Error ? error.stack : String(error) }, 'watchdog scan failed'),
      );
    });
  }

  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  /** One pass. Wakes are started, not awaited: a woken turn may run for minutes. */
  async scan(): Promise<Finding[]> {
    const started = performance.now();
    await this.index.refresh();
    const findings = this.index.findings(this.clock.now().getTime(), this.options.queuedTooLongMs);
    for (const finding of findings) {
      this.metrics.watchdogFindings.inc({ kind: finding.kind });
      this.logger.info({ ...finding }, 'watchdog wakes stuck work');
      void this.wake({ taskId: finding.taskId, reason: 'watchdog' });
    }
    this.metrics.watchdogScanSeconds.observe((performance.now() - started) / 1000);
    return findings;
  }
}
