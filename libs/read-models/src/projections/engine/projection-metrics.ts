import type { Metrics } from '@lomo/observability';
import type { BatchResult } from './projection-engine';
import type { ProjectionStatus } from './projection-status';

/** Prometheus instruments of the projector, labelled by projection (logical name). */
export class ProjectionMetrics {
  private readonly counters;

  constructor(metrics: Metrics, statuses: () => ProjectionStatus[]) {
    metrics.gauge(
      'lomo_projection_lag_events',
      'Events a projection was behind the store at its last sweep',
      ['projection'],
      (g) => {
        for (const s of statuses()) g.set({ projection: s.name }, s.lagEvents);
      },
    );
    metrics.gauge(
      'lomo_projection_lag_seconds',
      'Age of the oldest event a projection had not applied at its last sweep',
      ['projection'],
      (g) => {
        for (const s of statuses()) g.set({ projection: s.name }, s.lagSeconds);
      },
    );
    metrics.gauge(
      'lomo_projection_live',
      '1 when the projection is live, 0 while rebuilding, waiting or failed',
      ['projection'],
      (g) => {
        for (const s of statuses()) g.set({ projection: s.name }, s.state === 'live' ? 1 : 0);
      },
    );
    this.counters = {
      applied: metrics.counter('lomo_projection_events_applied_total', 'Events applied as the next revision', [
        'projection',
      ]),
      duplicates: metrics.counter('lomo_projection_duplicates_skipped_total', 'Events skipped as already applied', [
        'projection',
      ]),
      gapFilled: metrics.counter('lomo_projection_gap_events_read_total', 'Events read from the store to fill gaps', [
        'projection',
      ]),
      conflicts: metrics.counter(
        'lomo_projection_write_conflicts_total',
        'Compare-and-set conflicts re-read and redone',
        ['projection'],
      ),
    };
  }

  count(projection: string, result: BatchResult): void {
    const labels = { projection };
    if (result.applied > 0) this.counters.applied.inc(labels, result.applied);
    if (result.duplicates > 0) this.counters.duplicates.inc(labels, result.duplicates);
    if (result.gapFilled > 0) this.counters.gapFilled.inc(labels, result.gapFilled);
    if (result.conflicts > 0) this.counters.conflicts.inc(labels, result.conflicts);
  }
}
