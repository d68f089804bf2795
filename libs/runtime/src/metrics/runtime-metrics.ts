import type { Counter, Histogram } from 'prom-client';
import type { Metrics } from '@lomo/observability';

export type ToolCallStatus = 'ok' | 'error' | 'pending' | 'unknown' | 'needs_approval' | 'rejected' | 'retried';

/** The runtime's instruments, registered once per process on the shared registry. */
export class RuntimeMetrics {
  /** Appends the store refused on an expected-revision check; `outcome` says whether the worker went on. */
  readonly fencedWrites: Counter<string>;
  readonly steps: Counter<string>;
  readonly modelLatency: Histogram<string>;
  readonly toolCalls: Counter<string>;
  readonly watchdogFindings: Counter<string>;
  readonly watchdogScanSeconds: Histogram<string>;

  constructor(metrics: Metrics, activeTurns: () => number) {
    this.fencedWrites = metrics.counter(
      'lomo_runtime_fenced_writes_total',
      'Runtime appends refused by the store (expected revision), by stream category and what the worker did next',
      ['stream', 'outcome'],
    );
    this.steps = metrics.counter('lomo_runtime_steps_total', 'Model steps committed by this process');
    this.modelLatency = metrics.histogram(
      'lomo_runtime_model_latency_seconds',
      'Duration of model calls, by outcome',
      ['outcome'],
      [0.005, 0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 120],
    );
    this.toolCalls = metrics.counter('lomo_runtime_tool_calls_total', 'Tool calls by status', ['status']);
    this.watchdogFindings = metrics.counter(
      'lomo_runtime_watchdog_findings_total',
      'Work the watchdog found stuck and woke, by kind',
      ['kind'],
    );
    this.watchdogScanSeconds = metrics.histogram(
      'lomo_runtime_watchdog_scan_seconds',
      'Duration of one watchdog scan',
      [],
      [0.0001, 0.001, 0.01, 0.1, 1],
    );
    metrics.gauge('lomo_runtime_active_turns', 'Turns whose lease this process holds', [], (g) => g.set(activeTurns()));
  }
}
