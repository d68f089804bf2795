import { performance } from 'node:perf_hooks';
import type { MemoryVersionState } from '@lomo/domain';
import type { EmbeddingProvider } from '@lomo/llm';
import type { SearchIndex } from '@lomo/routing';
import type { BenchVersion } from './generator';
import { buildRecall, WORKSPACE } from './harness';
import type { Prng } from './prng';
import { EN, ZH } from './scenarios';

const ALL = [...EN, ...ZH];

/**
 * `count` memories of ONE person (the worst case: recall searches one person's scope, so this is
 * the size that matters), 25 % local to one of 200 tasks, 15 % superseded, from every topic in
 * both languages with a project number so texts differ.
 */
function corpus(prng: Prng, count: number): BenchVersion[] {
  const out: BenchVersion[] = [];
  for (let i = 0; i < count; i += 1) {
    const sc = prng.pick(ALL);
    const text = `${sc.say.replace('{v}', prng.pick(sc.values))} (project ${prng.int(5000)})`;
    const local = prng.next() < 0.25;
    const superseded = prng.next() < 0.15;
    const state: MemoryVersionState = {
      versionId: prng.uuid(),
      memoryId: prng.uuid(),
      version: 1,
      subject: sc.subject,
      kind: 'preference',
      scope: local ? { kind: 'task', taskId: `task-${prng.int(200)}` } : { kind: 'long_term' },
      origin: 'explicit',
      text: null,
      fingerprint: '0'.repeat(64),
      validFrom: '2026-01-01T00:00:00.000Z',
      validTo: null,
      evidence: [],
      derivedFrom: [],
      cause: 'extracted',
      status: superseded ? 'superseded' : 'current',
      supersededBy: null,
      supersededReason: superseded ? 'refined' : null,
    };
    out.push({ userId: 'user-big', text, state });
  }
  return out;
}

export interface LatencyResult {
  count: number;
  medianMs: number;
  p95Ms: number;
  indexSeconds: number;
}

/** Median and p95 of `queries` recalls (limit 5) over `count` memories, after a short warm-up. */
export async function measureLatency(
  prng: Prng,
  index: SearchIndex,
  embedder: EmbeddingProvider,
  count: number,
  queries = 300,
): Promise<LatencyResult> {
  const started = performance.now();
  const { recall } = await buildRecall(index, embedder, corpus(prng, count));
  const indexSeconds = (performance.now() - started) / 1000;
  const ask = () => ({
    workspaceId: WORKSPACE,
    userId: 'user-big',
    taskId: `task-${prng.int(200)}`,
    text: prng.pick(prng.pick(ALL).ask),
    limit: 5,
  });
  for (let i = 0; i < 20; i += 1) await recall.recall(ask());
  const times: number[] = [];
  for (let i = 0; i < queries; i += 1) {
    const q = ask();
    const t0 = performance.now();
    await recall.recall(q);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return {
    count,
    medianMs: times[Math.floor(times.length / 2)]!,
    p95Ms: times[Math.floor(times.length * 0.95)]!,
    indexSeconds,
  };
}
