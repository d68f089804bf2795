import * as path from 'node:path';
import { FilesystemBlobStore } from '@lomo/blobs';
import { canonicalJson, type EventEnvelope } from '@lomo/contracts';
import { SqliteEventStore } from '@lomo/eventstore';
import {
  collaborationMetrics,
  metricFigures,
  type CollaborationMetrics,
  type CountedMetric,
  type ScenarioTruth,
} from '@lomo/operator';
import { PromptArchive } from '@lomo/runtime';

export type MetricFigures = ReturnType<typeof metricFigures>;

export interface ScenarioMetrics {
  figures: MetricFigures;
  /** Every counted occurrence, with the event that shows it (empty when every count is zero). */
  findings: Array<{ metric: string; taskId: string | null; position: string; type: string; detail: string }>;
  deliveredArtifacts: number;
  events: number;
  /** The error codes of the turns that failed (MODEL_BUDGET_EXHAUSTED: the run hit its token cap). */
  turnFailures: string[];
}

const PAGE = 1_000;

/**
 * The collaboration metrics of the drill's workspace, from the event log on the (stopped) app's
 * data directory and its archived prompts, never from the harness's counters: the same
 * `collaborationMetrics` an operator runs with `lomo metrics`.
 */
export async function scenarioMetrics(
  dataDir: string,
  workspaceId: string,
  truth: ScenarioTruth,
): Promise<ScenarioMetrics> {
  const store = new SqliteEventStore({ filename: path.join(dataDir, 'events.sqlite') });
  const archive = new PromptArchive(new FilesystemBlobStore(path.join(dataDir, 'blobs')));
  try {
    const events: EventEnvelope[] = [];
    for (let from: string | undefined; ;) {
      const page = await store.readAll({ ...(from !== undefined ? { fromPosition: from } : {}), maxCount: PAGE });
      for (const e of page) if (e.metadata.workspaceId === workspaceId) events.push(e);
      if (page.length < PAGE) break;
      from = page[page.length - 1].metadata.globalPosition;
    }
    const metrics = await collaborationMetrics(
      {
        events,
        promptText: async (ref) => {
          const prompt = await archive.load(ref as never).catch(() => undefined);
          return prompt === undefined ? null : canonicalJson(prompt.messages);
        },
      },
      truth,
    );
    return {
      figures: metricFigures(metrics),
      findings: findingsOf(metrics),
      deliveredArtifacts: metrics.pace.deliveredArtifacts,
      events: events.length,
      turnFailures: events
        .filter((e) => e.type === 'TurnFailed')
        .map((e) => (e.data as { error?: { code?: string } }).error?.code ?? 'unknown'),
    };
  } finally {
    await store.close();
  }
}

function findingsOf(m: CollaborationMetrics): ScenarioMetrics['findings'] {
  return Object.entries(m).flatMap(([metric, value]) =>
    'findings' in value ? (value as CountedMetric).findings.map((f) => ({ metric, ...f })) : [],
  );
}
