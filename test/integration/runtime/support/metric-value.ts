import type { Metrics } from '@lomo/observability';

/** The value of one labelled series of a counter or gauge (0 when absent). */
export async function metricValue(
  metrics: Metrics,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const metric = metrics.registry.getSingleMetric(name);
  if (metric === undefined) return 0;
  const { values } = await metric.get();
  const match = values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return match?.value ?? 0;
}
