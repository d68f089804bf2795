import { performance } from 'node:perf_hooks';
import type { MemoryVersionState } from '@lomo/domain';
import type { EmbeddingProvider, EmbeddingRequest } from '@lomo/llm';
import type { SearchIndex } from '@lomo/routing';
import type { BenchVersion } from './generator';
import { buildRecall, WORKSPACE } from './harness';
import type { Prng } from './prng';
import { EN, ZH } from './scenarios';

const ALL = [...EN, ...ZH];

/**
 * `count` memories of ONE person (the worst case: recall searches one person's scope, so this is
 * the size that matters), 25 % local to one of 200 tasks, 15 % superseded, from every topic in
 * both languages with a project number so texts differ. With `distinct`, the texts are drawn from
 * that many different ones (a learned embedder takes ~12 ms a document on this machine, so
 * 100 000 different texts would take 20 minutes to index; repeated texts are embedded once).
 */
function corpus(prng: Prng, count: number, distinct?: number): BenchVersion[] {
  const sentence = () => {
    const sc = prng.pick(ALL);
    return { subject: sc.subject, text: `${sc.say.replace('{v}', prng.pick(sc.values))} (project ${prng.int(5000)})` };
  };
  const pool = distinct === undefined ? undefined : Array.from({ length: distinct }, sentence);
  const out: BenchVersion[] = [];
  for (let i = 0; i < count; i += 1) {
    const { text, subject } = pool ? prng.pick(pool) : sentence();
    const local = prng.next() < 0.25;
    const superseded = prng.next() < 0.15;
    const state: MemoryVersionState = {
      versionId: prng.uuid(),
      memoryId: prng.uuid(),
      version: 1,
      subject,
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
  /** Median time of the query's embedding inside recall, and of the rest (search, filters, reads). */
  embedMedianMs: number;
  searchMedianMs: number;
  indexSeconds: number;
  /** The versions each timed recall returned, in order (to compare an approximate index with the exact one). */
  recalled: string[][];
}

/**
 * Document vectors embedded once per distinct text (the corpus repeats texts when `distinct` is
 * set), queries through the embedder's own query path, and the time of the last query embedding.
 */
export class BenchEmbedder implements EmbeddingProvider {
  readonly name: string;
  readonly kind: EmbeddingProvider['kind'];
  readonly dimensions: number;
  readonly querySimilarityScale: number | undefined;
  lastQueryMs = 0;
  private readonly cache = new Map<string, Float32Array>();

  constructor(private readonly inner: EmbeddingProvider) {
    this.name = inner.name;
    this.kind = inner.kind;
    this.dimensions = inner.dimensions;
    this.querySimilarityScale = inner.querySimilarityScale;
  }

  async embed(request: EmbeddingRequest): Promise<Float32Array[]> {
    const missing = [...new Set(request.texts.filter((t) => !this.cache.has(t)))];
    if (missing.length > 0) {
      const vectors = await this.inner.embed({ texts: missing, signal: request.signal });
      missing.forEach((t, i) => this.cache.set(t, vectors[i]!));
    }
    return request.texts.map((t) => this.cache.get(t)!);
  }

  async embedQuery(request: EmbeddingRequest): Promise<Float32Array[]> {
    const t0 = performance.now();
    const out = await (this.inner.embedQuery ? this.inner.embedQuery(request) : this.inner.embed(request));
    this.lastQueryMs = performance.now() - t0;
    return out;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Median and p95 of `queries` recalls (limit 5) over `count` memories, after a short warm-up, with
 * the query embedding's part. The same seed gives the same corpus and queries.
 */
export async function measureLatency(
  prng: Prng,
  index: SearchIndex,
  embedder: BenchEmbedder,
  count: number,
  options: { queries?: number; distinct?: number } = {},
): Promise<LatencyResult> {
  const queries = options.queries ?? 300;
  const started = performance.now();
  const { recall } = await buildRecall(index, embedder, corpus(prng, count, options.distinct));
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
  const embeds: number[] = [];
  const rests: number[] = [];
  const recalled: string[][] = [];
  for (let i = 0; i < queries; i += 1) {
    const q = ask();
    const t0 = performance.now();
    const got = await recall.recall(q);
    const total = performance.now() - t0;
    times.push(total);
    embeds.push(embedder.lastQueryMs);
    rests.push(total - embedder.lastQueryMs);
    recalled.push(got.map((m) => m.versionId));
  }
  times.sort((a, b) => a - b);
  return {
    count,
    medianMs: times[Math.floor(times.length / 2)]!,
    p95Ms: times[Math.floor(times.length * 0.95)]!,
    embedMedianMs: median(embeds),
    searchMedianMs: median(rests),
    indexSeconds,
    recalled,
  };
}
