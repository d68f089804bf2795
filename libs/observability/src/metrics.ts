import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const METRICS = Symbol('METRICS');

/** One registry per process; libraries register their instruments on it by name. */
export class Metrics {
  readonly registry = new Registry();

  constructor(options: { defaultMetrics?: boolean; prefix?: string } = {}) {
    if (options.defaultMetrics ?? true)
      collectDefaultMetrics({ register: this.registry, prefix: options.prefix ?? 'lomo_' });
  }

  counter(name: string, help: string, labelNames: string[] = []): Counter<string> {
    return (
      (this.registry.getSingleMetric(name) as Counter<string>) ??
      new Counter({ name, help, labelNames, registers: [this.registry] })
    );
  }

  /** With `collect`, the value is read at scrape time (no timer keeps it fresh). */
  gauge(
    name: string,
    help: string,
    labelNames: string[] = [],
    collect?: (gauge: Gauge<string>) => void,
  ): Gauge<string> {
    return (
      (this.registry.getSingleMetric(name) as Gauge<string>) ??
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        ...(collect
          ? {
              collect(this: Gauge<string>) {
                collect(this);
              },
            }
          : {}),
      })
    );
  }

  histogram(name: string, help: string, labelNames: string[] = [], buckets?: number[]): Histogram<string> {
    return (
      (this.registry.getSingleMetric(name) as Histogram<string>) ??
      new Histogram({ name, help, labelNames, buckets, registers: [this.registry] })
    );
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
